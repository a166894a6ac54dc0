package dev.parley.files;

import dev.parley.core.InvalidInputException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import java.nio.file.Path;

/** Serves {@code jsonl:DIR}: a directory of one JSONL file per session, created if absent. */
public final class JsonlStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "jsonl";
    }

    @Override
    public MessageLog open(String location, StoreOptions options) {
        if (location.isBlank()) {
            throw new InvalidInputException("jsonl: needs a directory, e.g. jsonl:/var/lib/app/sessions");
        }
        return JsonlMessageLog.open(Path.of(location), options);
    }
}
