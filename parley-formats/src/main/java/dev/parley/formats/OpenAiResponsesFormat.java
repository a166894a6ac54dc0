package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.NewEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * OpenAI Responses API conversations: a request body whose {@code input} is a list of items. One session per file;
 * each item is one entry (mapped by {@link ResponsesItems}, the mapper Codex rollouts use), chained in order with
 * the id {@code m-N}; the body's other fields ({@code model}, {@code instructions}, {@code tools}…) are kept
 * verbatim as session metadata. The request has no id of its own, so a file is identified by its path.
 */
final class OpenAiResponsesFormat {
    private OpenAiResponsesFormat() {}

    static boolean looksLike(JsonNode doc) {
        if (!doc.isObject() || !doc.path("input").isArray() || doc.has("messages")) {
            return false;
        }
        for (JsonNode item : doc.get("input")) {
            if (!item.isObject() || !item.has("type") && !item.has("role")) {
                return false;
            }
        }
        return true;
    }

    static ParsedSession read(Path file, JsonNode doc) {
        if (!looksLike(doc)) {
            throw SourceFileException.notOfTheFormat(file, 0, "a Responses API conversation is an object with an \"input\" item list");
        }
        List<NewEntry> entries = new ArrayList<>();
        EntryId parent = null;
        JsonNode input = doc.get("input");
        for (int i = 0; i < input.size(); i++) {
            EntryId id = new EntryId("m-" + (i + 1));
            EntryPayload payload = ResponsesItems.decode(input.get(i));
            ObjectNode encoded = ResponsesItems.encodeOne(payload);
            entries.add(new NewEntry(id, parent, null, payload, JsonSupport.source(Format.OPENAI_RESPONSES, input.get(i),
                    encoded == null ? JsonSupport.object() : encoded)));
            parent = id;
        }
        ObjectNode rest = ((ObjectNode) doc).deepCopy();
        rest.remove("input");
        Map<String, RawJson> metadata = new LinkedHashMap<>();
        if (!rest.isEmpty()) {
            metadata.put(OpenAiChatFormat.SOURCE_FIELDS, JsonSupport.raw(rest));
        }
        return new ParsedSession(Format.OPENAI_RESPONSES, null, "openai-responses:" + file.toAbsolutePath().normalize(),
                PiFormat.firstUserText(entries), metadata, List.of(new ParsedAgent(AgentId.MAIN, file, entries)), null, null);
    }

    static boolean isOwn(Entry e) {
        return e.source() != null && Format.OPENAI_RESPONSES.cliName().equals(e.source().format());
    }

    /** The request body: the source's fields (or the model), then the items. */
    static ObjectNode document(List<ExportedMessage> messages, @Nullable JsonNode sourceFields,
                               @Nullable String model) {
        ObjectNode doc = JsonSupport.object();
        if (sourceFields != null && sourceFields.isObject()) {
            doc.setAll((ObjectNode) sourceFields.deepCopy());
        } else if (model != null) {
            doc.put("model", model);
        }
        ArrayNode input = doc.putArray("input");
        for (ExportedMessage em : messages) {
            Entry e = em.entry();
            if (e != null && isOwn(e) && em.message().equals(e.message())) {
                ObjectNode item = ResponsesItems.encodeOne(em.message());
                input.add(JsonSupport.restore(item == null ? JsonSupport.object() : item, e.source()));
            } else {
                ResponsesItems.encodeAll(em.message()).forEach(input::add);
            }
        }
        return doc;
    }

    /** Every entry of a session imported from this format, exactly (custom items included), in order. */
    static ObjectNode exact(List<Entry> entries, @Nullable JsonNode sourceFields) {
        ObjectNode doc = JsonSupport.object();
        if (sourceFields != null && sourceFields.isObject()) {
            doc.setAll((ObjectNode) sourceFields.deepCopy());
        }
        ArrayNode input = doc.putArray("input");
        for (Entry e : entries) {
            ObjectNode item = ResponsesItems.encodeOne(e.payload());
            input.add(JsonSupport.restore(item == null ? JsonSupport.object() : item, e.source()));
        }
        return doc;
    }
}
