package dev.parley.files.internal;

import dev.parley.core.store.Scopes;
import dev.parley.core.store.Store;
import java.nio.file.Path;

/**
 * Where a {@code jsonl:DIR} store keeps each scope (described in {@code docs/03-jsonl-store.md}):
 * <pre>
 * DIR/&lt;session-id&gt;.jsonl                   the default scope's message log (the layout of stores before scopes)
 * DIR/.parley-catalog-cache.json            its catalog cache
 * DIR/scopes/&lt;scope&gt;/&lt;session-id&gt;.jsonl    every other scope's message log, and its catalog cache
 * DIR/records/&lt;scope&gt;/…                   every scope's session records and archives ({@link FileRepositories})
 * </pre>
 * A scope becomes a directory name through {@link PathSegments} (every byte outside {@code [A-Za-z0-9_-]}
 * percent-encoded), so no scope can name {@code .}, {@code ..} or a path, and the default scope's name,
 * {@value Store#DEFAULT_SCOPE}, encodes to itself. The default scope's log directory holds the other scopes'
 * directories, but a log only ever lists the regular {@code *.jsonl} files directly in its own directory, so no scope
 * sees another's sessions.
 */
public final class StoreLayout {
    /** The directory, under the store's, of every non-default scope's message log. */
    public static final String SCOPES = "scopes";
    /** The directory, under the store's, of every scope's session records and archives. */
    public static final String RECORDS = "records";

    private StoreLayout() {}

    /** The directory of a scope's session files. */
    public static Path logDirectory(Path storeDir, String scope) {
        Scopes.require(scope);
        return scope.equals(Store.DEFAULT_SCOPE) ? storeDir
                : storeDir.resolve(SCOPES).resolve(PathSegments.encode(scope));
    }

    /** The root of the records of every scope (each scope's directory below it: {@link FileRepositories}). */
    public static Path recordsRoot(Path storeDir) {
        return storeDir.resolve(RECORDS);
    }
}
