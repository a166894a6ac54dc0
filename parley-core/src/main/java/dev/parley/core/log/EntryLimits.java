package dev.parley.core.log;

import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How large an entry may be: the same on every backend, and the same limits the JSON codec ({@code parley-json})
 * reads with, so that whatever an append acknowledges reads back. {@link AppendCheck#plan} applies
 * {@link #check} to every entry it writes, before anything is written; a larger entry is an
 * {@link EntryTooLargeException}.
 *
 * <ul>
 *   <li><b>Text</b>: an entry holds at most {@value #MAX_TEXT_CHARS} characters (UTF-16 units, 64 Mi) of text,
 *       counted over all of it together: every string (message text, thinking, tool names, image data in base64…),
 *       every raw JSON value's text (tool-call arguments, provider items, custom data, metadata, source residuals)
 *       and every metadata key, a message's role included. So no JSON string or key of its encoding is longer,
 *       whatever form a raw value is stored in, and the encoded entry stays well under what one row, line or request
 *       can carry (at most six bytes a character: about 384 MiB).</li>
 *   <li><b>Nesting</b>: a raw JSON value, with the content blocks around it, nests at most {@value #MAX_RAW_DEPTH}
 *       levels (each tool result counts two: its object and its content list); the codec reads up to 200 levels
 *       more, for the entry's own envelope.</li>
 *   <li><b>Numbers</b>: a message's cost is written in at most {@value #MAX_NUMBER_CHARS} characters, with a scale
 *       within &plusmn;{@value dev.parley.core.model.Usage#MAX_COST_SCALE} (which {@link dev.parley.core.model.Usage}
 *       itself refuses to exceed).</li>
 * </ul>
 *
 * <p>The kit's scenario ML-17 checks that every backend refuses such an entry and writes nothing. Stateless and
 * thread-safe.
 */
public final class EntryLimits {
    /** The most text one entry may hold, in characters (UTF-16 units), all its strings and raw JSON together. */
    public static final int MAX_TEXT_CHARS = 64 * 1024 * 1024;
    /** How deeply a raw JSON value, with the content blocks around it, may nest. */
    public static final int MAX_RAW_DEPTH = 1000;
    /** The longest number (a message's cost) an entry may hold, in characters as written. */
    public static final int MAX_NUMBER_CHARS = 10_000;

    private EntryLimits() {}

    /**
     * Checks one entry against the limits.
     *
     * @param session the session, named in the error
     * @param index the entry's position in its batch, named in the error
     * @param entry the entry
     * @throws EntryTooLargeException naming the entry, what is too large, and the limit
     */
    public static void check(SessionId session, int index, NewEntry entry) {
        Walk w = new Walk();
        EntryPayload p = entry.payload();
        if (p instanceof Message m) {
            w.text(m.role().name());
            w.blocks(m.content(), 0);
            w.text(m.provider()).text(m.model()).text(m.stopReason()).text(m.errorMessage()).text(m.responseId());
            w.metadata(m.metadata());
            if (m.usage() != null && m.usage().costUsd() != null
                    && m.usage().costUsd().toString().length() > MAX_NUMBER_CHARS) {
                w.problem = "its cost is written in " + m.usage().costUsd().toString().length()
                        + " characters; the limit is " + MAX_NUMBER_CHARS;
            }
        } else if (p instanceof EntryPayload.Compaction c) {
            w.text(c.summary());
        } else if (p instanceof EntryPayload.ModelChange c) {
            w.text(c.provider()).text(c.model());
        } else if (p instanceof EntryPayload.ThinkingLevelChange c) {
            w.text(c.level());
        } else if (p instanceof EntryPayload.Label c) {
            w.text(c.label());
        } else if (p instanceof EntryPayload.BranchSummary c) {
            w.text(c.summary());
        } else if (p instanceof EntryPayload.SessionName c) {
            w.text(c.name());
        } else if (p instanceof EntryPayload.Custom c) {
            w.text(c.customType()).raw(c.data(), 0);
        }
        if (entry.source() != null) {
            w.text(entry.source().format());
            if (entry.source().residual() != null) {
                w.raw(entry.source().residual(), 0);
            }
        }
        if (w.problem == null && w.chars > MAX_TEXT_CHARS) {
            w.problem = "it holds " + w.chars + " characters of text; the limit is " + MAX_TEXT_CHARS
                    + " (64 Mi) for one entry, all its strings and raw JSON together";
        }
        if (w.problem != null) {
            throw new EntryTooLargeException("entry " + entry.id() + " (batch element " + index + ") is too large"
                    + " for session " + session + ": " + w.problem + "; nothing was written");
        }
    }

    /**
     * {@link #check(SessionId, int, NewEntry)} of every entry of a batch, in order.
     *
     * @param session the session, named in the error
     * @param batch the entries, in order; the failing entry's position in it is named in the error
     * @throws EntryTooLargeException for the first entry over the limits
     */
    public static void check(SessionId session, List<NewEntry> batch) {
        for (int i = 0; i < batch.size(); i++) {
            check(session, i, batch.get(i));
        }
    }

    /** The depth of the deepest container in JSON text, counted outside strings (0 for a scalar). */
    static int depth(String json) {
        int depth = 0;
        int max = 0;
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                max = Math.max(max, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return max;
    }

    private static final class Walk {
        long chars;
        @Nullable String problem;

        Walk text(@Nullable String s) {
            if (s != null) {
                chars += s.length();
            }
            return this;
        }

        void raw(RawJson raw, int around) {
            chars += raw.text().length();
            if (problem == null && raw.text().length() > MAX_RAW_DEPTH - around) {
                int depth = depth(raw.text());
                if (depth + around > MAX_RAW_DEPTH) {
                    problem = "a raw JSON value in it nests " + (depth + around) + " levels deep (with the content"
                            + " blocks around it); the limit is " + MAX_RAW_DEPTH;
                }
            }
        }

        void metadata(Map<String, RawJson> metadata) {
            for (Map.Entry<String, RawJson> e : metadata.entrySet()) {
                text(e.getKey());
                raw(e.getValue(), 0);
            }
        }

        void blocks(List<ContentBlock> blocks, int around) {
            for (ContentBlock b : blocks) {
                if (b instanceof ContentBlock.Text t) {
                    text(t.text());
                } else if (b instanceof ContentBlock.Thinking t) {
                    text(t.text()).text(t.signature());
                } else if (b instanceof ContentBlock.ToolCall c) {
                    text(c.id()).text(c.name()).raw(c.arguments(), around);
                } else if (b instanceof ContentBlock.ToolResult r) {
                    text(r.callId()).text(r.toolName());
                    if (problem == null && around + 2 > MAX_RAW_DEPTH) {
                        problem = "its tool results nest more than " + MAX_RAW_DEPTH / 2 + " deep";
                        return;
                    }
                    blocks(r.content(), around + 2);
                } else if (b instanceof ContentBlock.Image i) {
                    text(i.mediaType()).text(i.data()).text(i.url());
                } else if (b instanceof ContentBlock.File f) {
                    text(f.mediaType()).text(f.data()).text(f.url()).text(f.name());
                } else if (b instanceof ContentBlock.ProviderItem i) {
                    text(i.type()).raw(i.item(), around);
                }
            }
        }
    }
}
