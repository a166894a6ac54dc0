package dev.parley.json.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.log.EntryTooLargeException;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.AgentId;
import dev.parley.core.ErrorCode;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.repository.InvalidCursorException;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.json.Json;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Errors on the wire: RFC 9457 problem documents ({@value #MEDIA_TYPE}) built from a {@link ParleyException}'s
 * {@link ErrorCode}, and read back into the same exception type. This is the one mapping between Parley's errors and
 * HTTP, the way {@link ErrorCode#exitCode()} is the one mapping to exit statuses.
 *
 * <p>A document has the standard members {@code type} ({@value #TYPE_PREFIX}{@code <code>}), {@code title},
 * {@code status} (from {@link ErrorCode#httpStatus()}; 413 for an {@link EntryTooLargeException}) and
 * {@code detail} (the exception's message), and Parley's
 * {@code code} (the {@linkplain ParleyException#stableCode() stable code}, such as
 * {@code CHAT_SESSION_REVISION_CONFLICT}) and {@code errorCode} (the {@link ErrorCode} name). Errors with fields of
 * their own carry them too: {@code sessionId}, {@code expectedRevision}, {@code actualRevision} for a revision
 * conflict; {@code session} and {@code entry} for an entry conflict; {@code session}, {@code agent},
 * {@code expectedLast} and {@code actualLast} (null for none) when the agent's last entry moved; {@code sessionId},
 * {@code expectedToken} and {@code lease} for a lost lease; {@code location} and {@code corruption} (what is wrong
 * there) for a corrupt record.
 *
 * <p>Stateless and thread-safe.
 */
public final class Problems {
    /** The media type of a problem document. */
    public static final String MEDIA_TYPE = "application/problem+json";
    /** The prefix of every problem type URI; the rest is the error code in lower case. */
    public static final String TYPE_PREFIX = "https://parley.dev/problems/";

    /** The code of a 404 for a path the server does not route (not a missing resource: see {@code NOT_FOUND}). */
    public static final String NO_SUCH_ROUTE = "NO_SUCH_ROUTE";

    private Problems() {}

    /**
     * The problem document of a Parley error.
     *
     * @param e the error
     * @return a new object: the standard members and Parley's, with the error's own fields where it has them
     */
    public static ObjectNode of(ParleyException e) {
        ObjectNode o = document(status(e), e.code().name(), e.stableCode(), e.getMessage());
        if (e instanceof RevisionConflictException r) {
            o.put("sessionId", r.sessionId());
            o.put("expectedRevision", r.expectedRevision());
            o.put("actualRevision", r.actualRevision());
        } else if (e instanceof EntryConflictException c) {
            o.put("session", c.session().value());
            o.put("entry", c.entry().value());
        } else if (e instanceof LastEntryMovedException m) {
            o.put("session", m.session().value());
            o.put("agent", m.agent().value());
            putId(o, "expectedLast", m.expected());
            putId(o, "actualLast", m.actual());
        } else if (e instanceof LeaseLostException l) {
            o.put("sessionId", l.sessionId());
            o.put("expectedToken", l.expectedToken());
            if (l.actual() != null) {
                o.set("lease", Wire.encodeLease(l.actual()));
            }
        } else if (e instanceof CorruptRecordException c) {
            o.put("location", c.location());
            o.put("corruption", c.detail());
        }
        return o;
    }

    /**
     * The HTTP status of a Parley error: its {@link ErrorCode}'s, except an entry too large to store, which is 413
     * (Content Too Large) though its code is {@link ErrorCode#INVALID_INPUT}.
     */
    static int status(ParleyException e) {
        return e instanceof EntryTooLargeException ? 413 : e.code().httpStatus();
    }

    private static void putId(ObjectNode o, String key, @Nullable EntryId id) {
        if (id == null) {
            o.putNull(key);
        } else {
            o.put(key, id.value());
        }
    }

    private static @Nullable EntryId id(JsonNode problem, String key) {
        return problem.hasNonNull(key) ? new EntryId(problem.get(key).asText()) : null;
    }

    /**
     * A problem document for an error that is not a Parley error (a route that does not exist, a body over the limit,
     * a missing credential).
     *
     * @param status the HTTP status
     * @param code a stable code in upper snake case ({@code UNAUTHORIZED}, {@code PAYLOAD_TOO_LARGE})
     * @param detail what went wrong, for people
     * @return a new object; its {@code code} and {@code errorCode} are both {@code code}
     */
    public static ObjectNode of(int status, String code, String detail) {
        return document(status, code, code, detail);
    }

    private static ObjectNode document(int status, String errorCode, String code, @Nullable String detail) {
        ObjectNode o = Json.object();
        o.put("type", TYPE_PREFIX + code.toLowerCase(Locale.ROOT).replace('_', '-'));
        o.put("title", title(errorCode));
        o.put("status", status);
        o.put("detail", detail == null ? title(errorCode) : detail);
        o.put("code", code);
        o.put("errorCode", errorCode);
        return o;
    }

    private static String title(String code) {
        String words = code.toLowerCase(Locale.ROOT).replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /**
     * The {@link ErrorCode} a problem document names, or empty when it names none (a proxy's page, a Jetty error).
     *
     * @param problem the document, or any other JSON answer
     * @return the code its {@code errorCode} member names exactly; empty when that member is absent, not text, or no
     *     {@link ErrorCode}'s name
     */
    public static Optional<ErrorCode> errorCode(JsonNode problem) {
        String name = problem.path("errorCode").asText("");
        for (ErrorCode c : ErrorCode.values()) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * The Parley error a problem document stands for: the same exception type as the one the server raised, with its
     * fields, and the server's detail as its message where the type takes one.
     *
     * @param problem the document
     * @param context what was called, prefixed to the message when the type cannot carry the server's own
     * @return the exception; an {@link UnavailableException} when the document names no Parley error code
     */
    public static ParleyException toException(JsonNode problem, String context) {
        String detail = problem.path("detail").asText(context);
        String code = problem.path("code").asText("");
        ErrorCode errorCode = errorCode(problem).orElse(null);
        if (errorCode == null) {
            return new UnavailableException(context + ": HTTP " + problem.path("status").asInt() + ": " + detail, null);
        }
        return switch (errorCode) {
            case NOT_FOUND -> new NotFoundException(detail);
            case ALREADY_EXISTS -> code.equals("CHAT_SESSION_ALREADY_EXISTS")
                    ? new SessionAlreadyExistsException(after(detail, "session ", " already exists"))
                    : new AlreadyExistsException(detail);
            case REVISION_CONFLICT -> code.equals("LOG_LAST_ENTRY_MOVED")
                    ? new LastEntryMovedException(new SessionId(problem.path("session").asText()),
                    new AgentId(problem.path("agent").asText()), id(problem, "expectedLast"),
                    id(problem, "actualLast"))
                    : new RevisionConflictException(problem.path("sessionId").asText(),
                    problem.path("expectedRevision").asLong(), problem.path("actualRevision").asLong());
            case CORRUPT_RECORD -> code.startsWith("CHAT_")
                    ? new StorageCorruptionException(problem.path("location").asText("?"),
                    problem.path("corruption").asText(detail), null, code.equals("CHAT_ARCHIVE_STORAGE_CORRUPTION"))
                    : new CorruptRecordException(problem.path("location").asText("?"),
                    problem.path("corruption").asText(detail));
            case INVALID_INPUT -> code.equals("INVALID_CHAT_SESSION_CURSOR")
                    ? new InvalidCursorException(after(detail, "invalid catalog cursor: ", null), null)
                    : code.equals("LOG_ENTRY_TOO_LARGE") ? new EntryTooLargeException(detail)
                    : new InvalidInputException(detail);
            case UNAVAILABLE -> new UnavailableException(detail, null);
            case LEASE_LOST -> new LeaseLostException(problem.path("sessionId").asText(),
                    problem.path("expectedToken").asLong(), problem.hasNonNull("lease")
                    ? Wire.decodeLease(problem.get("lease")) : null);
            case UNSUPPORTED -> new UnsupportedException(detail);
            case ENTRY_CONFLICT -> new EntryConflictException(new SessionId(problem.path("session").asText()),
                    new EntryId(problem.path("entry").asText()), 0);
        };
    }

    private static String after(String text, String prefix, @Nullable String suffix) {
        String out = text.startsWith(prefix) ? text.substring(prefix.length()) : text;
        return suffix != null && out.endsWith(suffix) ? out.substring(0, out.length() - suffix.length()) : out;
    }
}
