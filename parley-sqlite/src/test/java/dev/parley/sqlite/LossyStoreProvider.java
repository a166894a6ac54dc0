package dev.parley.sqlite;

import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.ForwardingStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import dev.parley.core.store.StoreUri;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code lossy-sqlite:PATH}, test only: a SQLite store whose record updates ignore the expected revision (read the
 * current one, write over it) — the classic lost update the multi-process check must catch. Everything else is the
 * real store.
 */
public final class LossyStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "lossy-sqlite";
    }

    @Override
    public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
        return new Lossy(SqliteStore.open(Path.of(uri.location()), scope, scopePinned, options));
    }

    private static final class Lossy extends ForwardingStore {
        Lossy(Store real) {
            super(real);
        }

        @Override
        public Optional<ChatSessionRepository> sessions() {
            ChatSessionRepository r = delegate().sessions().orElseThrow();
            return Optional.of(new ChatSessionRepository() {
                @Override
                public CatalogPage list(CatalogQuery q) {
                    return r.list(q);
                }

                @Override
                public Optional<StoredSession> read(String id) {
                    return r.read(id);
                }

                @Override
                public StoredSession create(ChatSession s) {
                    return r.create(s);
                }

                @Override
                public Optional<StoredSession> update(ChatSession s, long expectedRevision) {
                    pause(); // as a slow client would: others write meanwhile, and what they wrote is overwritten
                    long actual = r.read(s.id()).map(StoredSession::revision).orElse(expectedRevision);
                    return r.update(s, actual);
                }

                @Override
                public boolean delete(String id, long expectedRevision) {
                    return r.delete(id, expectedRevision);
                }
            });
        }

        private static void pause() {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public Store withScope(String scope) {
            return new Lossy(delegate().withScope(scope));
        }
    }
}
