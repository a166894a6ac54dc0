package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * OpenAI Responses API items, the one mapper behind Codex rollouts ({@code response_item} payloads) and Responses
 * API conversations (an {@code input} list). One item is one entry:
 * <ul>
 *   <li>{@code message} (roles {@code user}, {@code assistant}, {@code developer}, {@code system}): a message whose
 *       {@code input_text}/{@code output_text} parts are text blocks and {@code input_image} parts with a URL are
 *       images; other parts are kept whole;</li>
 *   <li>{@code reasoning}: an assistant message with one thinking block (the summary texts; the
 *       {@code encrypted_content} is its signature);</li>
 *   <li>{@code function_call} and {@code custom_tool_call}: an assistant message with one tool call (a custom tool's
 *       free-form {@code input} is kept as a JSON string);</li>
 *   <li>{@code function_call_output} and {@code custom_tool_call_output}: a tool message with one result;</li>
 *   <li>anything else ({@code web_search_call}, {@code ghost_snapshot}, {@code local_shell_call}…): a custom entry
 *       of type {@value #OTHER_ITEM} holding the item whole.</li>
 * </ul>
 * Unknown fields of the items are kept by the entry's residual, as for every format.
 */
final class ResponsesItems {
    /** The custom-entry type of items with no model form. */
    static final String OTHER_ITEM = "response_item";

    private ResponsesItems() {}

    /** The model of one item. */
    static EntryPayload decode(JsonNode item) {
        String type = JsonSupport.text(item, "type");
        if (type == null && JsonSupport.text(item, "role") != null) {
            type = "message"; // an easy input message: {role, content}
        }
        if (type != null) {
            switch (type) {
                case "message" -> {
                    String role = JsonSupport.text(item, "role");
                    if (role != null && !role.isBlank()) {
                        return decodeMessage(role, item.get("content"));
                    }
                }
                case "reasoning" -> {
                    StringBuilder text = new StringBuilder();
                    for (JsonNode part : item.path("summary")) {
                        String t = JsonSupport.text(part, "text");
                        if (t != null) {
                            text.append(text.length() == 0 ? "" : "\n\n").append(t);
                        }
                    }
                    return Message.builder(Role.ASSISTANT).provider("openai")
                            .add(new ContentBlock.Thinking(text.toString(), JsonSupport.text(item, "encrypted_content")))
                            .build();
                }
                case "function_call" -> {
                    String name = JsonSupport.text(item, "name");
                    String args = JsonSupport.text(item, "arguments");
                    if (name != null) {
                        return Message.builder(Role.ASSISTANT).provider("openai").add(new ContentBlock.ToolCall(
                                JsonSupport.text(item, "call_id"), name,
                                args != null ? RawJson.of(args) : RawJson.EMPTY_OBJECT)).build();
                    }
                }
                case "custom_tool_call" -> {
                    String name = JsonSupport.text(item, "name");
                    String input = JsonSupport.text(item, "input");
                    if (name != null && input != null) {
                        return Message.builder(Role.ASSISTANT).provider("openai").add(new ContentBlock.ToolCall(
                                JsonSupport.text(item, "call_id"), name, Json.raw(Json.mapper().getNodeFactory()
                                        .textNode(input)))).build();
                    }
                }
                case "function_call_output", "custom_tool_call_output" -> {
                    String callId = JsonSupport.text(item, "call_id");
                    if (callId != null) {
                        return Message.toolResults(List.of(result(callId, item.get("output"))));
                    }
                }
                default -> {
                    // kept whole below
                }
            }
        }
        return new EntryPayload.Custom(OTHER_ITEM, JsonSupport.raw(item));
    }

    private static ContentBlock.ToolResult result(String callId, @Nullable JsonNode output) {
        if (output != null && output.isTextual()) {
            return ContentBlock.ToolResult.text(callId, null, output.textValue(), false);
        }
        List<ContentBlock> blocks = new ArrayList<>();
        if (output != null && output.isArray()) {
            blocks.addAll(parts(output));
        } else if (output != null && !output.isNull()) {
            blocks.add(new ContentBlock.ProviderItem(typeOf(output), JsonSupport.raw(output)));
        }
        return new ContentBlock.ToolResult(callId, null, blocks, false, false);
    }

    private static Message decodeMessage(String role, @Nullable JsonNode content) {
        Message.Builder b = Message.builder(Role.of(role));
        if (role.equals("assistant")) {
            b.provider("openai");
        }
        if (content != null && content.isTextual()) {
            b.plainText(content.textValue());
        } else if (content != null && content.isArray()) {
            b.content(parts(content));
        }
        return b.build();
    }

    private static List<ContentBlock> parts(JsonNode array) {
        List<ContentBlock> out = new ArrayList<>(array.size());
        for (JsonNode part : array) {
            String type = JsonSupport.text(part, "type");
            String text = JsonSupport.text(part, "text");
            String url = JsonSupport.text(part, "image_url");
            if (("input_text".equals(type) || "output_text".equals(type)) && text != null) {
                out.add(new ContentBlock.Text(text));
            } else if ("input_image".equals(type) && url != null) {
                out.add(new ContentBlock.Image(null, null, url));
            } else {
                out.add(new ContentBlock.ProviderItem(typeOf(part), JsonSupport.raw(part)));
            }
        }
        return out;
    }

    private static String typeOf(JsonNode node) {
        String type = JsonSupport.text(node, "type");
        return type == null ? "untyped" : type;
    }

    /**
     * The one item of an entry imported from items (the deterministic encoding), or null when the message does not
     * have the shape of one item.
     */
    static @Nullable ObjectNode encodeOne(EntryPayload payload) {
        if (payload instanceof EntryPayload.Custom c) {
            JsonNode item = JsonSupport.node(c.data());
            return item.isObject() ? (ObjectNode) item.deepCopy() : null;
        }
        if (!(payload instanceof Message m)) {
            return null;
        }
        List<ContentBlock> content = m.content();
        if (content.size() == 1 && content.get(0) instanceof ContentBlock.Thinking t) {
            return reasoning(t);
        }
        if (content.size() == 1 && content.get(0) instanceof ContentBlock.ToolCall c) {
            return call(c);
        }
        if (m.role().equals(Role.TOOL) && content.size() == 1 && content.get(0) instanceof ContentBlock.ToolResult r) {
            return output(r);
        }
        return message(m.role().name(), content, m.plainText());
    }

    /**
     * The items for a message of any source, converted: text, images and provider parts in one message item, then
     * a reasoning item per thinking block (before it), a call item per tool call and an output item per result.
     */
    static List<ObjectNode> encodeAll(Message m) {
        ObjectNode exact = encodeOne(m);
        if (exact != null && !exact.path("type").asText().equals("message")) {
            return List.of(exact);
        }
        List<ObjectNode> before = new ArrayList<>();
        List<ContentBlock> parts = new ArrayList<>();
        List<ObjectNode> after = new ArrayList<>();
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.Thinking t) {
                before.add(reasoning(t));
            } else if (b instanceof ContentBlock.ToolCall c) {
                after.add(call(c));
            } else if (b instanceof ContentBlock.ToolResult r) {
                after.add(output(r));
            } else {
                parts.add(b);
            }
        }
        List<ObjectNode> out = new ArrayList<>(before);
        if (!parts.isEmpty()) {
            String role = m.role().equals(Role.TOOL) ? "user" : m.role().name();
            out.add(message(role, parts, m.plainText() && parts.size() == m.content().size()));
        }
        out.addAll(after);
        return out;
    }

    private static ObjectNode reasoning(ContentBlock.Thinking t) {
        ObjectNode o = JsonSupport.object();
        o.put("type", "reasoning");
        ArrayNode summary = o.putArray("summary");
        if (!t.text().isEmpty()) {
            ObjectNode part = summary.addObject();
            part.put("type", "summary_text");
            part.put("text", t.text());
        }
        JsonSupport.putText(o, "encrypted_content", t.signature());
        return o;
    }

    private static ObjectNode call(ContentBlock.ToolCall c) {
        ObjectNode o = JsonSupport.object();
        JsonNode args = JsonSupport.node(c.arguments());
        boolean custom = c.arguments().text().startsWith("\"") && args.isTextual();
        o.put("type", custom ? "custom_tool_call" : "function_call");
        o.put("name", c.name());
        if (custom) {
            o.put("input", args.textValue());
        } else {
            o.put("arguments", c.arguments().text());
        }
        JsonSupport.putText(o, "call_id", c.id());
        return o;
    }

    private static ObjectNode output(ContentBlock.ToolResult r) {
        ObjectNode o = JsonSupport.object();
        o.put("type", "function_call_output");
        o.put("call_id", r.callId());
        if (r.plainText()) {
            o.put("output", r.text());
        } else {
            o.set("output", encodeParts(r.content(), "input_text"));
        }
        return o;
    }

    private static ObjectNode message(String role, List<ContentBlock> content, boolean plainText) {
        ObjectNode o = JsonSupport.object();
        o.put("type", "message");
        o.put("role", role);
        if (plainText) {
            o.put("content", ((ContentBlock.Text) content.get(0)).text());
        } else {
            o.set("content", encodeParts(content, role.equals("assistant") ? "output_text" : "input_text"));
        }
        return o;
    }

    private static ArrayNode encodeParts(List<ContentBlock> blocks, String textType) {
        ArrayNode out = JsonSupport.array();
        for (ContentBlock b : blocks) {
            if (b instanceof ContentBlock.ProviderItem p) {
                out.add(JsonSupport.node(p.item()));
                continue;
            }
            ObjectNode part = out.addObject();
            if (b instanceof ContentBlock.Text t) {
                part.put("type", textType);
                part.put("text", t.text());
            } else if (b instanceof ContentBlock.Image i) {
                part.put("type", "input_image");
                part.put("image_url", i.url() != null ? i.url()
                        : "data:" + (i.mediaType() == null ? "image/png" : i.mediaType()) + ";base64," + i.data());
            } else {
                part.put("type", textType);
                part.put("text", Json.write(dev.parley.json.EntryCodec.encodeBlock(b)));
            }
        }
        return out;
    }
}
