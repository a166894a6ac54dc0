package dev.parley.files.internal;

import dev.parley.core.EntryId;
import dev.parley.core.IoErrors;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.files.JsonlStore;
import dev.parley.tck.spi.ConformanceSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Damage injection for the conformance kit's corruption scenarios against {@code jsonl:} stores, found by the kit
 * through {@code META-INF/services/dev.parley.tck.spi.ConformanceSupport}. Test support only: it deliberately replaces
 * stored records with text that cannot be decoded. Needs {@code parley-tck} on the class path (an optional dependency
 * of this module).
 */
public final class JsonlConformanceSupport implements ConformanceSupport {
    @Override
    public String scheme() {
        return "jsonl";
    }

    /** A store directory, not yet created, in {@code dir}. */
    @Override
    public java.util.Optional<String> freshStore(Path dir) {
        return java.util.Optional.of("jsonl:" + dir.toAbsolutePath().resolve("store"));
    }

    /** Replaces the line of a message-log entry in its session file with a damaged one. */
    @Override
    public void corruptEntry(Store store, SessionId session, EntryId entry) {
        Path file = StoreLayout.logDirectory(jsonl(store).directory(), store.scope()).resolve(session.value()
                + JsonlMessageLog.SUFFIX);
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
            throw new UnavailableException("cannot damage " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /** Replaces the body of a session record's current revision with a truncated JSON document. */
    @Override
    public void corruptSessionRecord(Store store, String sessionId) {
        long revision = store.sessions().orElseThrow().read(sessionId)
                .orElseThrow(() -> new IllegalStateException("nothing to damage: " + sessionId)).revision();
        damage(FileRepositories.body(recordsOf(store), sessionId, revision), "{\"id\":");
    }

    /** Replaces a session's archive manifest with a truncated JSON document. */
    @Override
    public void corruptManifest(Store store, String sessionId) {
        damage(FileRepositories.archiveDir(recordsOf(store), sessionId).resolve("manifest.json"), "{\"version\":1,");
    }

    private static Path recordsOf(Store store) {
        return new FileRepositories(StoreLayout.recordsRoot(jsonl(store).directory())).scopeDirectory(store.scope());
    }

    private static JsonlStore jsonl(Store store) {
        if (store instanceof JsonlStore files) {
            return files;
        }
        throw new IllegalArgumentException("not a jsonl: store: " + store);
    }

    private static void damage(Path file, String text) {
        if (!Files.exists(file)) {
            throw new IllegalStateException("nothing to damage: " + file);
        }
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UnavailableException("cannot damage " + file + ": " + IoErrors.describe(e), e);
        }
    }
}
