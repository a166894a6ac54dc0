package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IoErrors;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Aider chat histories ({@code .aider.chat.history.md}), Markdown appended across runs. Each
 * {@code # aider chat started at …} header starts a session (text before the first header is kept with the first
 * session). Within a session the lines form blocks, and each block is one entry chained to the one before:
 * <ul>
 *   <li>{@code #### } lines (ending in Aider's two-space hard break): a user message;</li>
 *   <li>{@code > } lines (the same break): tool and system output, a custom entry {@code output} — it has no form
 *       in the message formats;</li>
 *   <li>every other line: the assistant's reply (SEARCH/REPLACE blocks included);</li>
 *   <li>blank lines belong to the block before them.</li>
 * </ul>
 * Entry ids are {@code line-N} of the block's first line. There are no ids, tool calls or per-message times in the
 * format; a block's exact text is kept by its residual whenever Aider's layout cannot be re-derived from the model,
 * so a session exports back byte for byte.
 */
final class AiderFormat {
    static final String HEADER = "# aider chat started at ";

    private AiderFormat() {}

    /** Whether the head of a file is an Aider chat history. */
    static boolean looksLike(String head) {
        return head.startsWith(HEADER) || head.contains("\n" + HEADER);
    }

    private enum Kind { PREAMBLE, HEADER, USER, OUTPUT, ASSISTANT }

    private record Block(Kind kind, int line, StringBuilder raw) {}

    /** One session per header. @throws SourceFileException if the file cannot be read or has no header */
    static List<ParsedSession> read(Path file) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            throw new SourceFileException(file, 0, "not valid UTF-8", e);
        } catch (IOException e) {
            throw new SourceFileException(file, 0, "cannot read: " + IoErrors.describe(e), e);
        }
        List<List<Block>> sessions = new ArrayList<>();
        List<Block> preamble = new ArrayList<>();
        List<Block> current = preamble;
        Block block = null;
        boolean afterBlank = false;
        int number = 0;
        for (int start = 0; start < text.length(); ) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end + 1;
            String line = text.substring(start, end);
            start = end;
            number++;
            String content = line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
            content = content.endsWith("\r") ? content.substring(0, content.length() - 1) : content;
            Kind kind = content.startsWith(HEADER) ? Kind.HEADER
                    : content.startsWith("####") && content.endsWith("  ") ? Kind.USER
                    : content.startsWith(">") && content.endsWith("  ") ? Kind.OUTPUT
                    : content.isEmpty() && block != null ? block.kind()
                    : current == preamble && sessions.isEmpty() ? Kind.PREAMBLE : Kind.ASSISTANT;
            boolean blank = content.isEmpty() && block != null;
            if (kind == Kind.HEADER && !blank) {
                current = new ArrayList<>();
                if (sessions.isEmpty()) {
                    current.addAll(preamble);
                }
                sessions.add(current);
                block = null;
            }
            boolean separate = afterBlank && (kind == Kind.USER || kind == Kind.OUTPUT); // a new prompt or output
            if (block == null || !blank && (kind != block.kind() || kind == Kind.HEADER || separate)) {
                block = new Block(kind, number, new StringBuilder());
                current.add(block);
            }
            block.raw().append(line);
            afterBlank = blank;
        }
        if (sessions.isEmpty()) {
            throw SourceFileException.notOfTheFormat(file, 0, "an Aider chat history has a \"" + HEADER.strip() + "\" line");
        }
        List<ParsedSession> out = new ArrayList<>(sessions.size());
        String path = file.toAbsolutePath().normalize().toString();
        for (int i = 0; i < sessions.size(); i++) {
            List<NewEntry> entries = new ArrayList<>();
            List<Integer> lines = new ArrayList<>();
            EntryId parent = null;
            for (Block b : sessions.get(i)) {
                EntryId id = new EntryId("line-" + b.line());
                EntryPayload payload = decode(b.kind(), b.raw().toString());
                ObjectNode source = record(b.kind().name().toLowerCase(Locale.ROOT), b.raw().toString());
                entries.add(new NewEntry(id, parent, null, payload,
                        JsonSupport.source(Format.AIDER, source, record(b.kind().name().toLowerCase(Locale.ROOT), render(payload)))));
                lines.add(b.line());
                parent = id;
            }
            out.add(new ParsedSession(Format.AIDER, null, "aider:" + path + "#" + i, PiFormat.firstUserText(entries),
                    Map.of(), List.of(new ParsedAgent(AgentId.MAIN, file, entries, lines)), file, i));
        }
        return out;
    }

    private static ObjectNode record(String kind, String text) {
        ObjectNode o = JsonSupport.object();
        o.put("kind", kind);
        o.put("text", text);
        return o;
    }

    private static List<String> contentLines(String raw) {
        List<String> lines = new ArrayList<>(List.of(raw.split("\r?\n", -1)));
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    private static EntryPayload decode(Kind kind, String raw) {
        switch (kind) {
            case PREAMBLE -> {
                ObjectNode data = JsonSupport.object();
                data.put("text", raw);
                return new EntryPayload.Custom("preamble", JsonSupport.raw(data));
            }
            case HEADER -> {
                ObjectNode data = JsonSupport.object();
                data.put("startedAt", contentLines(raw).get(0).substring(HEADER.length()).strip());
                return new EntryPayload.Custom("session", JsonSupport.raw(data));
            }
            case OUTPUT -> {
                List<String> out = new ArrayList<>();
                for (String l : contentLines(raw)) {
                    String rest = l.startsWith(">") ? l.substring(1) : l;
                    rest = rest.strip().isEmpty() ? "" : rest.startsWith(" ") ? rest.substring(1) : rest;
                    out.add(rest.endsWith("  ") ? rest.substring(0, rest.length() - 2) : rest);
                }
                ObjectNode data = JsonSupport.object();
                data.put("text", String.join("\n", out));
                return new EntryPayload.Custom("output", JsonSupport.raw(data));
            }
            case USER -> {
                List<String> out = new ArrayList<>();
                for (String l : contentLines(raw)) {
                    String rest = l.startsWith("#### ") ? l.substring(5) : l.startsWith("####") ? l.substring(4) : l;
                    out.add(rest.endsWith("  ") ? rest.substring(0, rest.length() - 2) : rest);
                }
                return Message.user(String.join("\n", out));
            }
            default -> {
                return Message.builder(Role.ASSISTANT).plainText(String.join("\n", contentLines(raw))).build();
            }
        }
    }

    /** Aider's layout of a payload: the text the block would have, with one blank line after it. */
    static String render(EntryPayload p) {
        StringBuilder out = new StringBuilder();
        if (p instanceof EntryPayload.Custom c) {
            JsonNode data = JsonSupport.node(c.data());
            switch (c.customType()) {
                case "preamble" -> out.append(data.path("text").asText());
                case "session" -> out.append(HEADER).append(data.path("startedAt").asText()).append("\n\n");
                case "output" -> {
                    for (String l : data.path("text").asText().split("\n", -1)) {
                        out.append(l.isEmpty() ? ">  " : "> " + l + "  ").append('\n');
                    }
                    out.append('\n');
                }
                default -> {
                    return "";
                }
            }
            return out.toString();
        }
        if (p instanceof Message m && m.role().equals(Role.USER)) {
            for (String l : m.text().split("\n", -1)) {
                out.append("#### ").append(l).append("  \n");
            }
            return out.append('\n').toString();
        }
        if (p instanceof Message m && m.role().equals(Role.ASSISTANT)) {
            return m.text() + "\n\n";
        }
        return "";
    }

    static boolean isAider(Entry e) {
        return e.source() != null && Format.AIDER.cliName().equals(e.source().format());
    }

    /** The text of entries imported from Aider, exactly as read. */
    static String exportOwn(List<Entry> entries) {
        StringBuilder out = new StringBuilder();
        for (Entry e : entries) {
            JsonNode restored = JsonSupport.restore(record("x", render(e.payload())), e.source());
            out.append(restored.path("text").asText());
        }
        return out.toString();
    }

    /** A converted conversation: a header, then user prompts and assistant text in Aider's layout. */
    static String exportConverted(List<ExportedMessage> messages, Instant createdAt) {
        StringBuilder out = new StringBuilder(HEADER)
                .append(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC).format(createdAt))
                .append("\n\n");
        for (ExportedMessage em : messages) {
            Message m = em.message();
            // Text blocks apart in the message (around a tool call the history drops) stay paragraphs apart.
            String text = m.content().stream().filter(b -> b instanceof ContentBlock.Text)
                    .map(b -> ((ContentBlock.Text) b).text()).filter(t -> !t.isBlank())
                    .collect(java.util.stream.Collectors.joining("\n\n"));
            out.append(render(Message.builder(m.role()).plainText(text).build()));
        }
        return out.toString();
    }
}
