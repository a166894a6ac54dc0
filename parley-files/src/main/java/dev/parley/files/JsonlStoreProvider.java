package dev.parley.files;

import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import dev.parley.core.store.StoreUri;
import java.nio.file.Path;

/**
 * Serves {@code jsonl:DIR} ({@link JsonlStore}), the directory created if absent. Registered as a
 * {@link StoreProvider} service; users open stores through {@link dev.parley.core.store.Stores}. Stateless and
 * thread-safe.
 */
public final class JsonlStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "jsonl";
    }

    /** Whether the directory exists. */
    @Override
    public boolean exists(StoreUri uri) {
        return java.nio.file.Files.exists(directory(uri));
    }

    @Override
    public void backup(StoreUri uri, Path to) {
        dev.parley.files.internal.JsonlBackup.backup(directory(uri), to);
    }

    @Override
    public void restore(Path from, StoreUri uri) {
        dev.parley.files.internal.JsonlBackup.restore(from, directory(uri));
    }

    private static Path directory(StoreUri uri) {
        return uri.path("a directory", "/var/lib/app/sessions");
    }

    @Override
    public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
        return JsonlStore.open(uri.text(), directory(uri), scope, scopePinned, options);
    }
}
