package dev.parley.langchain4j;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.pdf.PdfFile;
import dev.parley.agent.memory.MessageCodec;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.json.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * LangChain4j's chat messages as Parley's, and back, without loss: {@code decode(encode(m)).equals(m)} for every
 * message type.
 *
 * <table>
 *   <caption>The mapping</caption>
 *   <tr><th>LangChain4j</th><th>Parley</th></tr>
 *   <tr><td>{@link SystemMessage}</td><td>a {@code system} message with one text block</td></tr>
 *   <tr><td>{@link UserMessage}</td><td>a {@code user} message: {@link TextContent} as text blocks, images as
 *       {@link ContentBlock.Image}, PDF files as {@link ContentBlock.File}, audio and video as
 *       {@link ContentBlock.ProviderItem}s holding LangChain4j's own JSON</td></tr>
 *   <tr><td>{@link AiMessage}</td><td>an {@code assistant} message: thinking, text and one
 *       {@link ContentBlock.ToolCall} per tool execution request (id, name and argument text exactly)</td></tr>
 *   <tr><td>{@link ToolExecutionResultMessage}</td><td>a {@code tool} message with one
 *       {@link ContentBlock.ToolResult} (call id, tool name, text, error flag)</td></tr>
 *   <tr><td>{@link CustomMessage}</td><td>a {@code custom} message with no content</td></tr>
 * </table>
 * What Parley's blocks have no field for — a user's name, attributes, an image's detail level, the difference
 * between an absent and a false error flag — is kept in the message's metadata under {@value #RESIDUAL_KEY}.
 * Attributes round-trip as JSON values (strings, numbers, booleans, lists and maps of them), read back as Jackson
 * reads them by default: an integer as an {@code Integer} where it fits (a {@code Long} 5 comes back an
 * {@code Integer} 5), a number with a fraction as a {@code Double} (a {@code Float} comes back a {@code Double}).
 *
 * <p>Stateless and thread-safe; {@link #CODEC} is the {@link MessageCodec} the chat memory store uses.
 */
public final class LangChain4jMessages {
    /** The metadata key of the fields Parley's blocks do not model. */
    public static final String RESIDUAL_KEY = "langchain4j";
    /** The role of a {@link CustomMessage}. */
    public static final Role CUSTOM = Role.of("custom");

    private static final String ITEM_PREFIX = "langchain4j:";
    private static final TypeReference<LinkedHashMap<String, Object>> ATTRIBUTES = new TypeReference<>() {};

    /** The codec of the chat memory store. */
    public static final MessageCodec<ChatMessage> CODEC =
            MessageCodec.of("langchain4j", LangChain4jMessages::encode, LangChain4jMessages::decode);

    private LangChain4jMessages() {}

    /**
     * The message as Parley's.
     *
     * @param message the LangChain4j message
     * @return the Parley message; what Parley's blocks do not model is kept under {@link #RESIDUAL_KEY} in its
     *     metadata
     * @throws InvalidInputException for a message type this mapping does not know, or a tool execution request without
     *     a name
     */
    public static Message encode(ChatMessage message) {
        ObjectNode residual = Json.object();
        Message.Builder b;
        if (message instanceof SystemMessage s) {
            b = Message.builder(Role.SYSTEM).plainText(s.text());
        } else if (message instanceof UserMessage u) {
            b = Message.builder(Role.USER);
            if (u.name() != null) {
                residual.put("name", u.name());
            }
            putAttributes(residual, u.attributes());
            ObjectNode details = Json.object();
            List<Content> contents = u.contents();
            for (int i = 0; i < contents.size(); i++) {
                Content c = contents.get(i);
                if (c instanceof TextContent t) {
                    b.add(new ContentBlock.Text(t.text()));
                } else if (c instanceof ImageContent ic && nativeImage(ic.image())) {
                    Image image = ic.image();
                    b.add(new ContentBlock.Image(image.mimeType(), image.base64Data(),
                            image.url() == null ? null : image.url().toString()));
                    if (ic.detailLevel() != ImageContent.DetailLevel.LOW) {
                        details.put(Integer.toString(i), ic.detailLevel().name());
                    }
                } else if (c instanceof PdfFileContent p && nativeFile(p.pdfFile())) {
                    PdfFile f = p.pdfFile();
                    b.add(new ContentBlock.File(f.mimeType(), f.base64Data(),
                            f.url() == null ? null : f.url().toString(), null));
                } else {
                    b.add(new ContentBlock.ProviderItem(ITEM_PREFIX + c.type().name().toLowerCase(Locale.ROOT),
                            RawJson.of(ChatMessageSerializer.messageToJson(UserMessage.from(c)))));
                }
            }
            if (!details.isEmpty()) {
                residual.set("imageDetail", details);
            }
            if (contents.size() == 1 && contents.get(0) instanceof TextContent t) {
                b.plainText(t.text());
            }
        } else if (message instanceof AiMessage ai) {
            b = Message.builder(Role.ASSISTANT);
            if (ai.thinking() != null) {
                b.add(new ContentBlock.Thinking(ai.thinking(), null));
            }
            if (ai.text() != null) {
                b.add(new ContentBlock.Text(ai.text()));
            }
            List<ToolExecutionRequest> calls = ai.toolExecutionRequests();
            for (int i = 0; i < calls.size(); i++) {
                ToolExecutionRequest call = calls.get(i);
                if (call.arguments() == null) {
                    residual.withArray("nullArguments").add(i);
                }
                b.add(toolCall(call));
            }
            putAttributes(residual, ai.attributes());
        } else if (message instanceof ToolExecutionResultMessage r) {
            if (r.id() == null) {
                residual.put("nullId", true);
            }
            if (Boolean.FALSE.equals(r.isError())) {
                residual.put("isError", false);
            }
            b = Message.builder(Role.TOOL).add(ContentBlock.ToolResult.text(r.id() == null ? "" : r.id(),
                    r.toolName(), r.text(), Boolean.TRUE.equals(r.isError())));
        } else if (message instanceof CustomMessage c) {
            b = Message.builder(CUSTOM);
            putAttributes(residual, c.attributes());
        } else {
            throw new InvalidInputException("unknown LangChain4j message type " + message.getClass().getName());
        }
        if (!residual.isEmpty()) {
            b.putMetadata(RESIDUAL_KEY, Json.raw(residual));
        }
        return b.build();
    }

    /**
     * The Parley message as LangChain4j's.
     *
     * @param message the Parley message, such as one {@link #encode} made
     * @return the LangChain4j message
     * @throws CorruptRecordException if the message has a role or content LangChain4j has no message for
     */
    public static ChatMessage decode(Message message) {
        RawJson raw = message.metadata().get(RESIDUAL_KEY);
        JsonNode residual = raw == null ? Json.object() : Json.tree(raw);
        String role = message.role().name();
        switch (role) {
            case "system":
                return SystemMessage.from(message.text());
            case "user": {
                List<Content> contents = new ArrayList<>();
                for (ContentBlock block : message.content()) {
                    int i = contents.size();
                    if (block instanceof ContentBlock.Text t) {
                        contents.add(TextContent.from(t.text()));
                    } else if (block instanceof ContentBlock.Image img) {
                        Image.Builder image = Image.builder().mimeType(img.mediaType()).base64Data(img.data());
                        if (img.url() != null) {
                            image.url(URI.create(img.url()));
                        }
                        String detail = residual.path("imageDetail").path(Integer.toString(i)).asText(null);
                        contents.add(ImageContent.from(image.build(),
                                detail == null ? ImageContent.DetailLevel.LOW : ImageContent.DetailLevel.valueOf(detail)));
                    } else if (block instanceof ContentBlock.File f) {
                        PdfFile.Builder pdf = PdfFile.builder().mimeType(f.mediaType()).base64Data(f.data());
                        if (f.url() != null) {
                            pdf.url(URI.create(f.url()));
                        }
                        contents.add(PdfFileContent.from(pdf.build()));
                    } else if (block instanceof ContentBlock.ProviderItem item && item.type().startsWith(ITEM_PREFIX)) {
                        contents.add(((UserMessage) ChatMessageDeserializer.messageFromJson(item.item().text()))
                                .contents().get(0));
                    } else {
                        throw corrupt(message, "a user message with a " + block.getClass().getSimpleName() + " block");
                    }
                }
                return UserMessage.builder().name(residual.path("name").asText(null)).contents(contents)
                        .attributes(attributes(residual)).build();
            }
            case "assistant": {
                String text = null;
                String thinking = null;
                List<ToolExecutionRequest> calls = new ArrayList<>();
                JsonNode nullArguments = residual.path("nullArguments");
                for (ContentBlock block : message.content()) {
                    if (block instanceof ContentBlock.Text t) {
                        text = text == null ? t.text() : text + t.text();
                    } else if (block instanceof ContentBlock.Thinking th) {
                        thinking = thinking == null ? th.text() : thinking + th.text();
                    } else if (block instanceof ContentBlock.ToolCall c) {
                        boolean nullArgs = false;
                        for (JsonNode n : nullArguments) {
                            nullArgs |= n.asInt() == calls.size();
                        }
                        calls.add(ToolExecutionRequest.builder().id(c.id()).name(c.name())
                                .arguments(nullArgs ? null : c.arguments().text()).build());
                    }
                }
                return AiMessage.builder().text(text).thinking(thinking).toolExecutionRequests(calls)
                        .attributes(attributes(residual)).build();
            }
            case "tool": {
                List<ContentBlock.ToolResult> results = message.toolResults();
                if (results.size() != 1) {
                    throw corrupt(message, "a tool message with " + results.size() + " results");
                }
                ContentBlock.ToolResult r = results.get(0);
                Boolean isError = r.isError() ? Boolean.TRUE : residual.has("isError") ? Boolean.FALSE : null;
                return ToolExecutionResultMessage.builder().id(residual.path("nullId").asBoolean() ? null : r.callId())
                        .toolName(r.toolName()).text(r.text()).isError(isError).build();
            }
            case "custom":
                return CustomMessage.from(attributes(residual));
            default:
                throw corrupt(message, "a message of role '" + role + "'");
        }
    }

    /** A LangChain4j tool execution request as a Parley tool call: id, name and argument text exactly. */
    static ContentBlock.ToolCall toolCall(ToolExecutionRequest call) {
        if (call.name() == null) {
            throw new InvalidInputException("a LangChain4j tool execution request (id " + call.id() + ") has no name");
        }
        return new ContentBlock.ToolCall(call.id(), call.name(),
                RawJson.of(call.arguments() == null ? "{}" : call.arguments()));
    }

    private static boolean nativeImage(Image image) {
        return (image.url() == null) != (image.base64Data() == null) && image.revisedPrompt() == null;
    }

    private static boolean nativeFile(PdfFile file) {
        return (file.url() == null) != (file.base64Data() == null);
    }

    private static void putAttributes(ObjectNode residual, @Nullable Map<String, Object> attributes) {
        if (attributes != null && !attributes.isEmpty()) {
            residual.set("attributes", Json.mapper().valueToTree(attributes));
        }
    }

    private static Map<String, Object> attributes(JsonNode residual) {
        JsonNode node = residual.get("attributes");
        return node == null ? new LinkedHashMap<>() : Json.plainValue(node, ATTRIBUTES);
    }

    private static CorruptRecordException corrupt(Message message, String what) {
        return new CorruptRecordException("LangChain4j message", what + " has no LangChain4j form: " + message);
    }
}
