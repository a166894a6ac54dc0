package dev.parley.core.model;

import dev.parley.core.RawJson;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One block of a message's content. The variants are the union of what Anthropic, OpenAI, pi and Planck messages
 * carry; anything else a provider sends is kept whole as a {@link ProviderItem}.
 */
public sealed interface ContentBlock {

    /**
     * Plain text. An empty string is a real, distinct value (not the same as no text block).
     *
     * @param text the text, never null
     */
    record Text(String text) implements ContentBlock {
        /**
         * @param text the text
         * @throws NullPointerException if {@code text} is null
         */
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * The model's reasoning. Kept also when {@code text} is empty, because the signature alone must be sent back
     * to the provider for the next turn to be accepted.
     *
     * @param text the reasoning text, possibly empty
     * @param signature the provider's opaque signature over it, or null when it has none
     */
    record Thinking(String text, @Nullable String signature) implements ContentBlock {
        /**
         * @param text the reasoning text, possibly empty
         * @param signature the provider's signature, or null
         * @throws NullPointerException if {@code text} is null; {@code signature} may be
         */
        public Thinking {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A request by the model to call a tool.
     *
     * @param id the call id that the result refers to; null only in (rare, broken) source records that lack one
     * @param name the tool's name
     * @param arguments the arguments, as the JSON text the provider produced (an object for most providers)
     */
    record ToolCall(@Nullable String id, String name, RawJson arguments) implements ContentBlock {
        /**
         * @param id the call id, or null
         * @param name the tool's name
         * @param arguments the arguments as JSON text
         * @throws NullPointerException if {@code name} or {@code arguments} is null; {@code id} may be
         */
        public ToolCall {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /**
     * The result of a tool call.
     *
     * @param callId the id of the {@link ToolCall} this answers
     * @param toolName the tool's name when the source states it (OpenAI, pi), else null
     * @param content the result's own content blocks (text, images…), copied
     * @param isError whether the tool reported failure
     * @param plainText whether the source gave the content as a bare string rather than a list of blocks; only
     *     meaningful when {@code content} is exactly one {@link Text}
     */
    record ToolResult(String callId, @Nullable String toolName, List<ContentBlock> content, boolean isError,
                      boolean plainText) implements ContentBlock {
        /**
         * Copies {@code content} into an unmodifiable list.
         *
         * @param callId the id of the {@link ToolCall} this answers
         * @param toolName the tool's name, or null
         * @param content the result's content blocks, copied
         * @param isError whether the tool reported failure
         * @param plainText whether the content was given as a bare string
         * @throws NullPointerException if {@code callId} or {@code content} is null, or {@code content} holds a null
         * @throws dev.parley.core.InvalidInputException if {@code plainText} is set but {@code content} is not exactly
         *     one {@link Text}
         */
        public ToolResult {
            Objects.requireNonNull(callId, "callId");
            content = List.copyOf(content);
            if (plainText && !(content.size() == 1 && content.get(0) instanceof Text)) {
                throw new dev.parley.core.InvalidInputException("plainText requires exactly one text block");
            }
        }

        /**
         * A result whose content is one text block, given as a bare string.
         *
         * @param callId the id of the {@link ToolCall} this answers
         * @param toolName the tool's name, or null
         * @param text the result's text
         * @param isError whether the tool reported failure
         * @return the result, with {@code plainText} set
         * @throws NullPointerException if {@code callId} or {@code text} is null
         */
        public static ToolResult text(String callId, @Nullable String toolName, String text, boolean isError) {
            return new ToolResult(callId, toolName, List.of(new Text(text)), isError, true);
        }

        /**
         * The concatenated text of the text blocks of the content.
         *
         * @return the text; empty when the content holds no text block
         */
        public String text() {
            StringBuilder out = new StringBuilder();
            for (ContentBlock block : content) {
                if (block instanceof Text t) {
                    out.append(t.text());
                }
            }
            return out.toString();
        }
    }

    /**
     * An image, inline or by reference. Exactly one of {@code data} and {@code url} is set.
     *
     * @param mediaType the MIME type, e.g. {@code image/png}; null when the source does not say
     * @param data the image bytes in base64, or null
     * @param url a URL (including {@code data:} URLs), or null
     */
    record Image(@Nullable String mediaType, @Nullable String data, @Nullable String url) implements ContentBlock {
        /**
         * {@code mediaType} is not checked.
         *
         * @param mediaType the MIME type, or null
         * @param data the image bytes in base64, or null
         * @param url a URL, or null
         * @throws dev.parley.core.InvalidInputException unless exactly one of {@code data} and {@code url} is non-null
         */
        public Image {
            if ((data == null) == (url == null)) {
                throw new dev.parley.core.InvalidInputException("an image has exactly one of data and url");
            }
        }
    }

    /**
     * A file (a PDF, a document), inline or by reference. Exactly one of {@code data} and {@code url} is set.
     *
     * @param mediaType the MIME type, or null when the source does not say
     * @param data the bytes in base64, or null
     * @param url a URL, or null
     * @param name the file name when known, else null
     */
    record File(@Nullable String mediaType, @Nullable String data, @Nullable String url, @Nullable String name)
            implements ContentBlock {
        /**
         * {@code mediaType} and {@code name} are not checked.
         *
         * @param mediaType the MIME type, or null
         * @param data the bytes in base64, or null
         * @param url a URL, or null
         * @param name the file name, or null
         * @throws dev.parley.core.InvalidInputException unless exactly one of {@code data} and {@code url} is non-null
         */
        public File {
            if ((data == null) == (url == null)) {
                throw new dev.parley.core.InvalidInputException("a file has exactly one of data and url");
            }
        }
    }

    /**
     * A provider-specific block Parley does not model (redacted thinking, server tool use, encrypted reasoning,
     * Claude Code's {@code fallback}…), kept whole so it can be sent back or exported unchanged.
     *
     * @param type the block's type as the provider names it
     * @param item the whole block as JSON
     */
    record ProviderItem(String type, RawJson item) implements ContentBlock {
        /**
         * @param type the block's type as the provider names it
         * @param item the whole block as JSON
         * @throws NullPointerException if {@code type} or {@code item} is null
         */
        public ProviderItem {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(item, "item");
        }
    }
}
