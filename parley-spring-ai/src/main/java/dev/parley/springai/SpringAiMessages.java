package dev.parley.springai;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.agent.memory.MessageCodec;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Role;
import dev.parley.json.Json;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AbstractMessage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeType;

/**
 * Spring AI's chat messages as Parley's, and back, keeping what Spring AI's JDBC repository drops.
 *
 * <table>
 *   <caption>The mapping</caption>
 *   <tr><th>Spring AI</th><th>Parley</th></tr>
 *   <tr><td>{@link SystemMessage}</td><td>a {@code system} message with one text block</td></tr>
 *   <tr><td>{@link UserMessage}</td><td>a {@code user} message: the text, then each media as an
 *       {@link ContentBlock.Image} ({@code image/*}) or a {@link ContentBlock.File}</td></tr>
 *   <tr><td>{@link AssistantMessage}</td><td>an {@code assistant} message: the text (absent when null), media, and
 *       one {@link ContentBlock.ToolCall} per tool call (id, name and argument text exactly)</td></tr>
 *   <tr><td>{@link ToolResponseMessage}</td><td>a {@code tool} message with one {@link ContentBlock.ToolResult} per
 *       response (id, tool name, response data), in order</td></tr>
 * </table>
 * The messages' metadata (without {@code messageType}, which the type itself carries), media ids and names, and a
 * tool call's type when it is not {@code function} are kept in the message's metadata under {@value #RESIDUAL_KEY}.
 * Metadata round-trips as JSON values: strings, booleans, lists and maps of them come back equal; a number comes back
 * as Jackson reads it by default (an {@code Integer} where it fits, so a {@code Long} 5 returns as an {@code Integer}
 * 5; one with a fraction as a {@code Double}, so a {@code Double} comes back equal, a {@code Float} as a
 * {@code Double}); a value
 * Jackson cannot write (an {@code Instant}) is kept as its {@code toString()} and comes back as that string. A tool
 * call's arguments and a tool response's data that are null come back null. Media data given as bytes comes back as bytes, given as a URL as that
 * URL. Spring AI's {@code Media} has no {@code equals}, so messages with media compare equal only field by field.
 *
 * <p>Stateless and thread-safe; {@link #CODEC} is the {@link MessageCodec} of the repository.
 */
public final class SpringAiMessages {
    /** The metadata key of the fields Parley's blocks do not model. */
    public static final String RESIDUAL_KEY = "spring-ai";

    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

    /** The codec of the chat memory repository. */
    public static final MessageCodec<Message> CODEC =
            MessageCodec.of("spring-ai", SpringAiMessages::encode, SpringAiMessages::decode);

    private SpringAiMessages() {}

    /**
     * The message as Parley's.
     *
     * @param message the Spring AI message
     * @return the Parley message; what Parley's blocks do not model is kept under {@link #RESIDUAL_KEY} in its
     *     metadata
     * @throws InvalidInputException for a message type this mapping does not know, a tool call without a name, or a
     *     tool response without an id
     */
    public static dev.parley.core.model.Message encode(Message message) {
        ObjectNode residual = Json.object();
        putMetadata(residual, message.getMetadata());
        dev.parley.core.model.Message.Builder b;
        if (message instanceof SystemMessage s) {
            b = dev.parley.core.model.Message.builder(Role.SYSTEM).plainText(s.getText());
        } else if (message instanceof UserMessage u) {
            b = dev.parley.core.model.Message.builder(Role.USER);
            if (u.getMedia().isEmpty()) {
                b.plainText(u.getText());
            } else {
                b.add(new ContentBlock.Text(u.getText()));
                addMedia(b, residual, u.getMedia());
            }
        } else if (message instanceof AssistantMessage a) {
            b = dev.parley.core.model.Message.builder(Role.ASSISTANT);
            if (a.getText() != null) {
                b.add(new ContentBlock.Text(a.getText()));
            }
            addMedia(b, residual, a.getMedia());
            for (int i = 0; i < a.getToolCalls().size(); i++) {
                AssistantMessage.ToolCall call = a.getToolCalls().get(i);
                if (!"function".equals(call.type())) {
                    residual.with("toolCallTypes").put(Integer.toString(i), call.type());
                }
                if (call.arguments() == null) {
                    residual.withArray("nullArguments").add(i);
                }
                b.add(new ContentBlock.ToolCall(call.id(), required(call.name(), "tool call " + i, "name"),
                        RawJson.of(call.arguments() == null ? "{}" : call.arguments())));
            }
        } else if (message instanceof ToolResponseMessage t) {
            List<ContentBlock.ToolResult> results = new ArrayList<>();
            for (int i = 0; i < t.getResponses().size(); i++) {
                ToolResponseMessage.ToolResponse r = t.getResponses().get(i);
                if (r.responseData() == null) {
                    residual.withArray("nullResponseData").add(i);
                }
                results.add(ContentBlock.ToolResult.text(required(r.id(), "tool response " + i, "id"), r.name(),
                        r.responseData() == null ? "" : r.responseData(), false));
            }
            b = dev.parley.core.model.Message.builder(Role.TOOL).content(results);
        } else {
            throw new InvalidInputException("unknown Spring AI message type " + message.getClass().getName());
        }
        if (!residual.isEmpty()) {
            b.putMetadata(RESIDUAL_KEY, Json.raw(residual));
        }
        return b.build();
    }

    /**
     * The Parley message as Spring AI's.
     *
     * @param message the Parley message, such as one {@link #encode} made
     * @return the Spring AI message
     * @throws CorruptRecordException if the message has a role Spring AI has no message for
     */
    public static Message decode(dev.parley.core.model.Message message) {
        RawJson raw = message.metadata().get(RESIDUAL_KEY);
        JsonNode residual = raw == null ? Json.object() : Json.tree(raw);
        Map<String, Object> metadata = metadata(residual);
        switch (message.role().name()) {
            case "system":
                return SystemMessage.builder().text(message.text()).metadata(metadata).build();
            case "user":
                return UserMessage.builder().text(message.text()).media(media(message, residual)).metadata(metadata)
                        .build();
            case "assistant": {
                boolean hasText = message.content().stream().anyMatch(c -> c instanceof ContentBlock.Text);
                List<AssistantMessage.ToolCall> calls = new ArrayList<>();
                for (ContentBlock.ToolCall c : message.toolCalls()) {
                    JsonNode kept = residual.path("toolCallTypes").path(Integer.toString(calls.size()));
                    String type = kept.isMissingNode() ? "function" : kept.isNull() ? null : kept.asText();
                    calls.add(new AssistantMessage.ToolCall(c.id(), type, c.name(),
                            listed(residual, "nullArguments", calls.size()) ? null : c.arguments().text()));
                }
                return AssistantMessage.builder().content(hasText ? message.text() : null).properties(metadata)
                        .toolCalls(calls).media(media(message, residual)).build();
            }
            case "tool": {
                List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
                for (ContentBlock.ToolResult r : message.toolResults()) {
                    responses.add(new ToolResponseMessage.ToolResponse(r.callId(), r.toolName(),
                            listed(residual, "nullResponseData", responses.size()) ? null : r.text()));
                }
                return ToolResponseMessage.builder().responses(responses).metadata(metadata).build();
            }
            default:
                throw new CorruptRecordException("Spring AI message",
                        "a message of role '" + message.role() + "' has no Spring AI form");
        }
    }

    /** A part a Parley message cannot do without; its absence is refused by name. */
    private static String required(@Nullable String value, String part, String field) {
        if (value == null) {
            throw new InvalidInputException("the Spring AI message's " + part + " has no " + field);
        }
        return value;
    }

    /** Whether the residual's array {@code key} lists the index {@code i}. */
    private static boolean listed(JsonNode residual, String key, int i) {
        for (JsonNode n : residual.path(key)) {
            if (n.asInt() == i) {
                return true;
            }
        }
        return false;
    }

    private static void addMedia(dev.parley.core.model.Message.Builder b, ObjectNode residual, List<Media> media) {
        ArrayNode extra = null;
        for (Media m : media) {
            String type = m.getMimeType().toString();
            String data = m.getData() instanceof byte[] bytes ? Base64.getEncoder().encodeToString(bytes) : null;
            String url = data == null ? String.valueOf(m.getData()) : null;
            if (m.getMimeType().getType().equals("image")) {
                b.add(new ContentBlock.Image(type, data, url));
            } else {
                b.add(new ContentBlock.File(type, data, url, m.getName()));
            }
            if (extra == null) {
                extra = residual.putArray("media");
            }
            ObjectNode e = extra.addObject();
            if (m.getId() != null) {
                e.put("id", m.getId());
            }
            e.put("name", m.getName());
        }
    }

    private static List<Media> media(dev.parley.core.model.Message message, JsonNode residual) {
        List<Media> out = new ArrayList<>();
        for (ContentBlock block : message.content()) {
            String type;
            String data;
            String url;
            if (block instanceof ContentBlock.Image i) {
                type = i.mediaType();
                data = i.data();
                url = i.url();
            } else if (block instanceof ContentBlock.File f) {
                type = f.mediaType();
                data = f.data();
                url = f.url();
            } else {
                continue;
            }
            JsonNode extra = residual.path("media").path(out.size());
            Media.Builder m = Media.builder().mimeType(MimeType.valueOf(type == null ? "application/octet-stream" : type));
            if (data != null) {
                m.data(new ByteArrayResource(Base64.getDecoder().decode(data))); // kept as its bytes on both lines
            } else {
                dataAsText(m, url);
            }
            if (extra.hasNonNull("id")) {
                m.id(extra.get("id").asText());
            }
            if (extra.hasNonNull("name")) {
                m.name(extra.get("name").asText());
            }
            out.add(m.build());
        }
        return out;
    }

    /**
     * Gives a media its data as the text of a URL, as Spring AI keeps it. The builder method that takes it is
     * {@code data(Object)} in Spring AI 1.x and {@code data(String)} from 2.0, which removed the former; the one this
     * runtime has is looked up once, so that the adapter compiled against 1.1 runs on 2.0 too ({@code data(URI)},
     * which both have, would refuse a URL that is not a valid URI).
     */
    private static void dataAsText(Media.Builder builder, @Nullable String url) {
        try {
            DATA_AS_TEXT.invoke(builder, url);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Media.Builder.data failed", e);
        }
    }

    private static final MethodHandle DATA_AS_TEXT = dataAsTextHandle();

    private static MethodHandle dataAsTextHandle() {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        for (Class<?> parameter : new Class<?>[] {String.class, Object.class}) {
            try {
                return lookup.findVirtual(Media.Builder.class, "data",
                        MethodType.methodType(Media.Builder.class, parameter))
                        .asType(MethodType.methodType(Media.Builder.class, Media.Builder.class, String.class));
            } catch (NoSuchMethodException e) {
                continue; // the other Spring AI line
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("Media.Builder.data is not public", e);
            }
        }
        throw new IllegalStateException("this Spring AI's Media.Builder has neither data(String) nor data(Object)");
    }

    private static void putMetadata(ObjectNode residual, @Nullable Map<String, Object> metadata) {
        if (metadata == null) {
            return;
        }
        ObjectNode out = Json.object();
        metadata.forEach((k, v) -> {
            if (AbstractMessage.MESSAGE_TYPE.equals(k)) {
                return;
            }
            try {
                out.set(k, Json.mapper().valueToTree(v));
            } catch (IllegalArgumentException e) {
                out.put(k, String.valueOf(v));
            }
        });
        if (!out.isEmpty()) {
            residual.set("metadata", out);
        }
    }

    private static Map<String, Object> metadata(JsonNode residual) {
        JsonNode node = residual.get("metadata");
        return node == null ? new LinkedHashMap<>() : Json.plainValue(node, MAP);
    }
}
