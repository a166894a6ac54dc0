package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Anthropic Messages content blocks (shared by Claude Code records and Anthropic request bodies): {@code text},
 * {@code thinking}, {@code tool_use}, {@code tool_result}, {@code image} and {@code document} map to the model;
 * every other block is kept whole as a provider item.
 */
final class AnthropicBlocks {
    private AnthropicBlocks() {}

    /** The blocks of a content array. */
    static List<ContentBlock> decode(JsonNode array) {
        List<ContentBlock> out = new ArrayList<>(array.size());
        for (JsonNode block : array) {
            out.add(decodeBlock(block));
        }
        return out;
    }

    static ContentBlock decodeBlock(JsonNode b) {
        String type = JsonSupport.text(b, "type");
        if (type == null || !b.isObject()) {
            return new ContentBlock.ProviderItem("untyped", JsonSupport.raw(b));
        }
        switch (type) {
            case "text" -> {
                String text = JsonSupport.text(b, "text");
                if (text != null) {
                    return new ContentBlock.Text(text);
                }
            }
            case "thinking" -> {
                String text = JsonSupport.text(b, "thinking");
                if (text != null) {
                    return new ContentBlock.Thinking(text, JsonSupport.text(b, "signature"));
                }
            }
            case "tool_use" -> {
                String name = JsonSupport.text(b, "name");
                if (name != null) {
                    JsonNode input = b.get("input");
                    return new ContentBlock.ToolCall(JsonSupport.text(b, "id"), name,
                            input == null ? RawJson.EMPTY_OBJECT : JsonSupport.raw(input));
                }
            }
            case "tool_result" -> {
                String callId = JsonSupport.text(b, "tool_use_id");
                JsonNode content = b.get("content");
                if (callId != null) {
                    boolean error = b.path("is_error").asBoolean(false);
                    if (content != null && content.isTextual()) {
                        return ContentBlock.ToolResult.text(callId, null, content.textValue(), error);
                    }
                    List<ContentBlock> inner = content != null && content.isArray() ? decode(content) : List.of();
                    return new ContentBlock.ToolResult(callId, null, inner, error, false);
                }
            }
            case "image", "document" -> {
                JsonNode source = b.get("source");
                String kind = source == null ? null : JsonSupport.text(source, "type");
                if ("base64".equals(kind) && JsonSupport.text(source, "data") != null) {
                    String media = JsonSupport.text(source, "media_type");
                    String data = JsonSupport.text(source, "data");
                    return type.equals("image") ? new ContentBlock.Image(media, data, null)
                            : new ContentBlock.File(media, data, null, JsonSupport.text(b, "title"));
                }
                if ("url".equals(kind) && JsonSupport.text(source, "url") != null) {
                    String url = JsonSupport.text(source, "url");
                    return type.equals("image") ? new ContentBlock.Image(null, null, url)
                            : new ContentBlock.File(null, null, url, JsonSupport.text(b, "title"));
                }
            }
            default -> {
                // kept whole below
            }
        }
        return new ContentBlock.ProviderItem(type, JsonSupport.raw(b));
    }

    /** The content array for blocks. */
    static ArrayNode encode(List<ContentBlock> blocks) {
        ArrayNode out = JsonSupport.array();
        for (ContentBlock block : blocks) {
            out.add(encodeBlock(block));
        }
        return out;
    }

    static JsonNode encodeBlock(ContentBlock block) {
        ObjectNode o = JsonSupport.object();
        if (block instanceof ContentBlock.Text t) {
            o.put("type", "text");
            o.put("text", t.text());
        } else if (block instanceof ContentBlock.Thinking t) {
            o.put("type", "thinking");
            o.put("thinking", t.text());
            JsonSupport.putText(o, "signature", t.signature());
        } else if (block instanceof ContentBlock.ToolCall c) {
            o.put("type", "tool_use");
            JsonSupport.putText(o, "id", c.id());
            o.put("name", c.name());
            o.set("input", JsonSupport.node(c.arguments()));
        } else if (block instanceof ContentBlock.ToolResult r) {
            o.put("type", "tool_result");
            o.put("tool_use_id", r.callId());
            if (r.plainText()) {
                o.put("content", r.text());
            } else {
                o.set("content", encode(r.content()));
            }
            if (r.isError()) {
                o.put("is_error", true);
            }
        } else if (block instanceof ContentBlock.Image i) {
            o.put("type", "image");
            o.set("source", source(i.mediaType(), i.data(), i.url()));
        } else if (block instanceof ContentBlock.File f) {
            o.put("type", "document");
            o.set("source", source(f.mediaType(), f.data(), f.url()));
            JsonSupport.putText(o, "title", f.name());
        } else if (block instanceof ContentBlock.ProviderItem p) {
            return JsonSupport.node(p.item());
        }
        return o;
    }

    private static ObjectNode source(@Nullable String mediaType, @Nullable String data, @Nullable String url) {
        ObjectNode s = JsonSupport.object();
        if (data != null) {
            s.put("type", "base64");
            JsonSupport.putText(s, "media_type", mediaType);
            s.put("data", data);
        } else {
            s.put("type", "url");
            s.put("url", url);
        }
        return s;
    }
}
