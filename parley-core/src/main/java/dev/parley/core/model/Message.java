package dev.parley.core.model;

import dev.parley.core.RawJson;
import dev.parley.core.Times;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One message of a conversation: who said it, what it contains, and what produced it.
 *
 * <p>Immutable; use the factories for common shapes and {@link #toBuilder()} for the rest.
 *
 * @param role who the message is from
 * @param content the content blocks in order, copied; may be empty (an aborted reply, OpenAI's {@code null})
 * @param plainText whether the source gave the content as a bare string rather than a list of blocks; only
 *     meaningful when {@code content} is exactly one {@link ContentBlock.Text}
 * @param provider the provider that produced (or will receive) the message, e.g. {@code anthropic}; null if unknown
 * @param model the model id, e.g. {@code claude-opus-4-5}; null if unknown
 * @param usage token usage of the call that produced an assistant message, or null
 * @param stopReason why generation stopped, in the provider's own words ({@code end_turn}, {@code toolUse}…), or null
 * @param errorMessage the error that ended the message (an aborted or failed call), or null
 * @param createdAt when the message was created (milliseconds), or null if the source does not say
 * @param responseId the provider's id of the response this message belongs to; one response can be split over
 *     several entries (Claude Code writes one record per content block), and they share this id
 * @param metadata free-form metadata, copied; keys and order are kept
 */
public record Message(Role role, List<ContentBlock> content, boolean plainText, @Nullable String provider,
                      @Nullable String model, @Nullable Usage usage, @Nullable String stopReason,
                      @Nullable String errorMessage, @Nullable Instant createdAt, @Nullable String responseId,
                      Map<String, RawJson> metadata) implements EntryPayload {

    /**
     * Copies {@code content} into an unmodifiable list, truncates {@code createdAt} to milliseconds, and copies
     * {@code metadata}, keeping its order, into an unmodifiable map.
     *
     * @param role who the message is from
     * @param content the content blocks in order, copied; may be empty
     * @param plainText whether the content was given as a bare string
     * @param provider the provider, or null
     * @param model the model id, or null
     * @param usage the token usage, or null
     * @param stopReason why generation stopped, or null
     * @param errorMessage the error that ended the message, or null
     * @param createdAt when the message was created, or null
     * @param responseId the provider's id of the response, or null
     * @param metadata free-form metadata, copied
     * @throws NullPointerException if {@code role}, {@code content} or {@code metadata} is null, {@code content}
     *     holds a null, or {@code metadata} a null key or value
     * @throws dev.parley.core.InvalidInputException if {@code plainText} is set but {@code content} is not exactly one
     *     {@link ContentBlock.Text}, or {@code createdAt} is outside the years 0000 to 9999 ({@link Times})
     */
    public Message {
        Objects.requireNonNull(role, "role");
        content = List.copyOf(content);
        if (plainText && !(content.size() == 1 && content.get(0) instanceof ContentBlock.Text)) {
            throw new dev.parley.core.InvalidInputException("plainText requires exactly one text block");
        }
        createdAt = createdAt == null ? null : Times.millis(createdAt);
        metadata = RawJson.copyOf(metadata, "metadata");
    }

    /**
     * A message of the given role whose content is one text block, given as plain text.
     *
     * @param role who the message is from
     * @param text the text
     * @return the message, with {@code plainText} set and every other field null or empty
     * @throws NullPointerException if {@code text} is null
     */
    public static Message text(Role role, String text) {
        return builder(role).plainText(text).build();
    }

    /**
     * A user message with one text block.
     *
     * @param text the text
     * @return the message, with {@code plainText} set and every other field null or empty
     * @throws NullPointerException if {@code text} is null
     */
    public static Message user(String text) {
        return text(Role.USER, text);
    }

    /**
     * A system message with one text block.
     *
     * @param text the text
     * @return the message, with {@code plainText} set and every other field null or empty
     * @throws NullPointerException if {@code text} is null
     */
    public static Message system(String text) {
        return text(Role.SYSTEM, text);
    }

    /**
     * An assistant message with the given blocks.
     *
     * @param content the blocks, in order; copied
     * @return the message; {@code plainText} false and every other field null or empty
     * @throws NullPointerException if {@code content} holds a null
     */
    public static Message assistant(List<ContentBlock> content) {
        return builder(Role.ASSISTANT).content(content).build();
    }

    /**
     * A tool message carrying the given results.
     *
     * @param results the results, in order; copied
     * @return the message, of role {@link Role#TOOL}; {@code plainText} false and every other field null or empty
     * @throws NullPointerException if {@code results} holds a null
     */
    public static Message toolResults(List<ContentBlock.ToolResult> results) {
        return builder(Role.TOOL).content(new ArrayList<>(results)).build();
    }

    /**
     * A new builder for a message of the given role.
     *
     * @param role who the message will be from
     * @return a builder with no content, {@code plainText} false, no metadata and every other field null
     */
    public static Builder builder(Role role) {
        return new Builder(role);
    }

    /**
     * A builder initialised with every field of this message.
     *
     * @return a new builder; building from it does not change this message
     */
    public Builder toBuilder() {
        Builder b = new Builder(role);
        b.content = new ArrayList<>(content);
        b.plainText = plainText;
        b.provider = provider;
        b.model = model;
        b.usage = usage;
        b.stopReason = stopReason;
        b.errorMessage = errorMessage;
        b.createdAt = createdAt;
        b.responseId = responseId;
        b.metadata = new LinkedHashMap<>(metadata);
        return b;
    }

    /**
     * The concatenated text of the text blocks (thinking, tool calls and results excluded).
     *
     * @return the text; empty when there is no text block
     */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (ContentBlock block : content) {
            if (block instanceof ContentBlock.Text t) {
                out.append(t.text());
            }
        }
        return out.toString();
    }

    /**
     * The tool calls in this message, in order.
     *
     * @return the calls, in a new list; empty when there are none
     */
    public List<ContentBlock.ToolCall> toolCalls() {
        List<ContentBlock.ToolCall> calls = new ArrayList<>();
        for (ContentBlock block : content) {
            if (block instanceof ContentBlock.ToolCall c) {
                calls.add(c);
            }
        }
        return calls;
    }

    /**
     * The tool results in this message, in order.
     *
     * @return the results, in a new list; empty when there are none
     */
    public List<ContentBlock.ToolResult> toolResults() {
        List<ContentBlock.ToolResult> results = new ArrayList<>();
        for (ContentBlock block : content) {
            if (block instanceof ContentBlock.ToolResult r) {
                results.add(r);
            }
        }
        return results;
    }

    /** Builds {@link Message}s. Not thread-safe. */
    public static final class Builder {
        private Role role;
        private List<ContentBlock> content = new ArrayList<>();
        private boolean plainText;
        private @Nullable String provider;
        private @Nullable String model;
        private @Nullable Usage usage;
        private @Nullable String stopReason;
        private @Nullable String errorMessage;
        private @Nullable Instant createdAt;
        private @Nullable String responseId;
        private Map<String, RawJson> metadata = new LinkedHashMap<>();

        private Builder(Role role) {
            this.role = Objects.requireNonNull(role, "role");
        }

        /**
         * Sets the role.
         *
         * @param role who the message is from
         * @return this builder
         * @throws NullPointerException if {@code role} is null
         */
        public Builder role(Role role) {
            this.role = Objects.requireNonNull(role, "role");
            return this;
        }

        /**
         * Replaces the content with these blocks and clears {@code plainText}.
         *
         * @param blocks the blocks, in order; copied
         * @return this builder
         */
        public Builder content(List<? extends ContentBlock> blocks) {
            this.content = new ArrayList<>(blocks);
            this.plainText = false;
            return this;
        }

        /**
         * Appends one block and clears {@code plainText}.
         *
         * @param block the block to append
         * @return this builder
         * @throws NullPointerException if {@code block} is null
         */
        public Builder add(ContentBlock block) {
            this.content.add(Objects.requireNonNull(block, "block"));
            this.plainText = false;
            return this;
        }

        /**
         * Sets the content to one text block given as plain text.
         *
         * @param text the text
         * @return this builder
         * @throws NullPointerException if {@code text} is null
         */
        public Builder plainText(String text) {
            this.content = new ArrayList<>(List.of(new ContentBlock.Text(text)));
            this.plainText = true;
            return this;
        }

        /**
         * Sets whether the content is given as a bare string; {@link #build()} refuses {@code true} unless the content
         * is then exactly one text block.
         *
         * @param plainText whether the content is given as a bare string
         * @return this builder
         */
        public Builder plainText(boolean plainText) {
            this.plainText = plainText;
            return this;
        }

        /**
         * Sets the provider, e.g. {@code anthropic}; null for unknown.
         *
         * @param provider the provider, or null
         * @return this builder
         */
        public Builder provider(@Nullable String provider) {
            this.provider = provider;
            return this;
        }

        /**
         * Sets the model id, e.g. {@code claude-opus-4-5}; null for unknown.
         *
         * @param model the model id, or null
         * @return this builder
         */
        public Builder model(@Nullable String model) {
            this.model = model;
            return this;
        }

        /**
         * Sets the token usage of the call that produced the message, or null for none.
         *
         * @param usage the token usage, or null
         * @return this builder
         */
        public Builder usage(@Nullable Usage usage) {
            this.usage = usage;
            return this;
        }

        /**
         * Sets why generation stopped, in the provider's own words, or null.
         *
         * @param stopReason the stop reason, or null
         * @return this builder
         */
        public Builder stopReason(@Nullable String stopReason) {
            this.stopReason = stopReason;
            return this;
        }

        /**
         * Sets the error that ended the message, or null.
         *
         * @param errorMessage the error, or null
         * @return this builder
         */
        public Builder errorMessage(@Nullable String errorMessage) {
            this.errorMessage = errorMessage;
            return this;
        }

        /**
         * Sets the creation time, or null if unknown. It is truncated to milliseconds and range-checked by
         * {@link #build()}, not here.
         *
         * @param createdAt the creation time, or null
         * @return this builder
         */
        public Builder createdAt(@Nullable Instant createdAt) {
            this.createdAt = createdAt;
            return this;
        }

        /**
         * Sets the provider's id of the response the message belongs to, or null.
         *
         * @param responseId the response id, or null
         * @return this builder
         */
        public Builder responseId(@Nullable String responseId) {
            this.responseId = responseId;
            return this;
        }

        /**
         * Replaces the metadata with a copy of {@code metadata}, keeping its order. A null key or value is refused
         * by {@link #build()}.
         *
         * @param metadata the metadata to copy
         * @return this builder
         * @throws NullPointerException if {@code metadata} is null
         */
        public Builder metadata(Map<String, RawJson> metadata) {
            this.metadata = new LinkedHashMap<>(metadata);
            return this;
        }

        /**
         * Adds or replaces one metadata entry; a new key goes last.
         *
         * @param key the metadata key
         * @param value its value
         * @return this builder
         * @throws NullPointerException if {@code key} or {@code value} is null
         */
        public Builder putMetadata(String key, RawJson value) {
            this.metadata.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * The message; the builder can go on to build others.
         *
         * @return a new message
         * @throws NullPointerException if a content block, or a metadata key or value, is null
         * @throws dev.parley.core.InvalidInputException if {@code plainText} is set but the content is not one text
         *     block, or {@code createdAt} is outside the years 0000 to 9999
         */
        public Message build() {
            return new Message(role, content, plainText, provider, model, usage, stopReason, errorMessage, createdAt,
                    responseId, metadata);
        }
    }
}
