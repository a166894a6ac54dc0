package dev.parley.files;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Scopes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Damage injection for the conformance kit's corruption scenarios, against a {@link FileRepositories} directory. Test
 * support only: it deliberately replaces records with text that cannot be decoded.
 */
public final class FilesConformanceSupport {
    private FilesConformanceSupport() {}

    /** Replaces the body of a session's current revision with a truncated JSON document. */
    public static void corruptSessionRecord(FileRepositories repositories, String scope, String sessionId) {
        long revision = repositories.sessions(scope).read(sessionId)
                .orElseThrow(() -> new IllegalStateException("nothing to damage: " + sessionId)).revision();
        damage(FileRepositories.body(repositories.scopeDirectory(scope), sessionId, revision), "{\"id\":");
    }

    /** Replaces a session's archive manifest with a truncated JSON document. */
    public static void corruptManifest(FileRepositories repositories, String scope, String sessionId) {
        damage(FileRepositories.archiveDir(repositories.scopeDirectory(scope), sessionId).resolve("manifest.json"),
                "{\"version\":1,");
    }

    /**
     * Replaces the line of a message-log entry in a JSONL store's session file with a damaged one (call it with every
     * instance of the store closed).
     */
    public static void corruptEntry(Path storeDir, SessionId session, EntryId entry) {
        Path file = storeDir.resolve(session.value() + JsonlMessageLog.SUFFIX);
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
            boolean hit = false;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("\"id\":\"" + entry.value() + "\"")) {
                    lines.set(i, "{\"type\":\"entry\",\"id\": broken");
                    hit = true;
                }
            }
            if (!hit) {
                throw new IllegalStateException("nothing to damage: no line of " + file + " holds entry " + entry);
            }
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UnavailableException("cannot damage " + file + ": " + e.getMessage(), e);
        }
    }

    /** The file repositories behind a store's {@link Repositories}, when they are file repositories. */
    public static FileRepositories of(Repositories repositories) {
        if (repositories instanceof FileRepositories files) {
            return files;
        }
        throw new IllegalArgumentException("not a file store: " + repositories.getClass().getName());
    }

    private static void damage(Path file, String text) {
        if (!Files.exists(file)) {
            throw new IllegalStateException("nothing to damage: " + file);
        }
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UnavailableException("cannot damage " + file + ": " + e.getMessage(), e);
        }
    }
}
