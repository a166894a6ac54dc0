package dev.parley.sqlite;

import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Scopes;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code lossy-sqlite:PATH}, test only: a SQLite store whose updates ignore the expected revision (read the current
 * one, write over it) — the classic lost update the multi-process check must catch.
 */
public final class LossyStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "lossy-sqlite";
    }

    @Override
    public MessageLog open(String location, StoreOptions options) {
        SqliteMessageLog log = SqliteMessageLog.open(Path.of(location), options);
        Repositories real = log.repositories().orElseThrow();
        Repositories lossy = new Repositories() {
            @Override
            public ChatSessionRepository sessions(String scope) {
                ChatSessionRepository r = real.sessions(scope);
                return new ChatSessionRepository() {
                    @Override
                    public dev.parley.core.repository.CatalogPage list(dev.parley.core.repository.CatalogQuery q) {
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
                        long actual = r.read(s.id()).map(StoredSession::revision).orElse(expectedRevision);
                        return r.update(s, actual);
                    }

                    @Override
                    public boolean delete(String id, long expectedRevision) {
                        return r.delete(id, expectedRevision);
                    }
                };
            }

            @Override
            public ChatArchiveRepository archives(String scope) {
                return real.archives(scope);
            }

            @Override
            public void dropScope(String scope) {
                real.dropScope(scope);
            }
        };
        // Only the repositories differ; every other call goes to the real store.
        return (MessageLog) Proxy.newProxyInstance(MessageLog.class.getClassLoader(), new Class<?>[] {MessageLog.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("repositories")) {
                        return Optional.of(lossy);
                    }
                    try {
                        return method.invoke(log, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
