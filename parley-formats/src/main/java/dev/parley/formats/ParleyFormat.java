package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parley's own JSONL: a header line {@code {"type":"session","version":1,"id",…}} followed by one
 * {@code {"type":"entry",…}} line per entry in canonical JSON — the same records the JSONL store keeps. Exact for
 * every session, whatever it was imported from: importing an export gives back the same entries (ids, parents,
 * agents, source records), in the same order.
 */
final class ParleyFormat {
    static final int VERSION = 1;

    private ParleyFormat() {}

    static boolean looksLike(JsonNode first) {
        return "session".equals(JsonSupport.text(first, "type")) && first.has("createdAt");
    }

    static List<String> export(SessionInfo info, List<Entry> entries) {
        List<String> out = new ArrayList<>(entries.size() + 1);
        ObjectNode header = JsonSupport.object();
        header.put("type", "session");
        header.put("version", VERSION);
        header.put("id", info.id().value());
        header.put("createdAt", Instants.format(info.createdAt()));
        JsonSupport.putText(header, "title", info.title());
        JsonSupport.putText(header, "origin", info.origin());
        if (!info.metadata().isEmpty()) {
            header.set("metadata", EntryCodec.encodeRawMap(info.metadata()));
        }
        out.add(Json.write(header));
        for (Entry e : entries) {
            ObjectNode line = JsonSupport.object();
            line.put("type", "entry");
            line.setAll(EntryCodec.encode(e));
            out.add(Json.write(line));
        }
        return out;
    }

    /**
     * An exported session, read back. Entries keep their agents and order: each run of consecutive entries of one
     * agent becomes one {@link ParsedAgent} (so an agent can appear several times), appended in file order.
     */
    static ParsedSession read(Path file, List<ImportProblem> warnings) {
        List<JsonLines.Line> lines = JsonLines.read(file, warnings);
        if (lines.isEmpty() || !looksLike(lines.get(0).node())) {
            throw SourceFileException.notOfTheFormat(file, 1, "a Parley export starts with a {\"type\":\"session\"} header");
        }
        ObjectNode header = lines.get(0).node();
        String location = file + ":" + lines.get(0).number();
        try {
            if (header.has("metadata")) {
                EntryCodec.decodeRawMap(header.get("metadata"), location);
            }
        } catch (CorruptRecordException e) {
            throw new SourceFileException(file, lines.get(0).number(), e.getMessage(), e);
        }
        if (JsonSupport.longOr(header, "version", 0) != VERSION) {
            throw new SourceFileException(file, lines.get(0).number(), "unsupported Parley export version "
                    + header.get("version"));
        }
        String id = JsonSupport.text(header, "id");
        java.time.Instant createdAt = JsonSupport.instant(header, "createdAt");
        if (createdAt == null) {
            throw new SourceFileException(file, lines.get(0).number(), "the header's createdAt is not a time: "
                    + header.get("createdAt"));
        }
        Map<String, RawJson> metadata = new LinkedHashMap<>();
        if (header.has("metadata")) {
            metadata.putAll(EntryCodec.decodeRawMap(header.get("metadata"), location));
        }
        List<ParsedAgent> runs = new ArrayList<>();
        AgentId current = null;
        List<NewEntry> run = new ArrayList<>();
        List<Integer> runLines = new ArrayList<>();
        java.util.Set<dev.parley.core.EntryId> seen = new java.util.HashSet<>();
        for (JsonLines.Line l : lines.subList(1, lines.size())) {
            ObjectNode body = l.node().deepCopy();
            String type = JsonSupport.text(body, "type");
            if ("usage".equals(type) || "truncate".equals(type)) {
                continue; // records of a JSONL store's own files: usage totals and truncation marks are not entries
            }
            if (!"entry".equals(type)) {
                throw new SourceFileException(file, l.number(), "expected an entry record");
            }
            body.remove("type");
            body.remove("more"); // a JSONL store's batch mark
            Entry e;
            try {
                e = EntryCodec.decode(body, file + ":" + l.number());
            } catch (CorruptRecordException | InvalidInputException ex) {
                throw new SourceFileException(file, l.number(), ex.getMessage(), ex);
            }
            // Checked here, so that nothing of a file that would fail half-way is stored.
            if (!seen.add(e.id())) {
                throw new SourceFileException(file, l.number(), "entry id " + e.id() + " appears twice");
            }
            if (e.parentId() != null && !seen.contains(e.parentId())) {
                throw new SourceFileException(file, l.number(), "parent " + e.parentId() + " is not an earlier entry");
            }
            if (current != null && !current.equals(e.agentId())) {
                runs.add(new ParsedAgent(current, file, run, runLines));
                run = new ArrayList<>();
                runLines = new ArrayList<>();
            }
            current = e.agentId();
            run.add(e.toNewEntry());
            runLines.add(l.number());
        }
        if (current != null) {
            runs.add(new ParsedAgent(current, file, run, runLines));
        }
        String origin = JsonSupport.text(header, "origin");
        return new ParsedSession(Format.PARLEY, id, origin != null ? origin : "parley:" + id,
                JsonSupport.text(header, "title"), metadata, runs, null, null, createdAt);
    }

}
