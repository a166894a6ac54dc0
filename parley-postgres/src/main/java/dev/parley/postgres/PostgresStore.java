package dev.parley.postgres;

import dev.parley.core.store.Scopes;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.internal.JdbcStore;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The message log, its catalog, and the session records and archives in one PostgreSQL database: the hosted,
 * multi-replica store. Every replica points at the same database and gets the guarantees of the embedded default.
 * Open it with {@code Stores.open("postgres:JDBC-URL")} (see {@link PostgresStoreProvider}), or over a data source the
 * host owns with {@link #open(DataSource, StoreOptions)} or {@link #builder(DataSource)}.
 *
 * <ul>
 *   <li><b>Transactions.</b> Every operation is one transaction; nothing is half-written. A write to a log session
 *       first locks the session's catalog row, so writes to one session are serialized across replicas and the
 *       insertion order ({@code seq}, an identity column) is commit order within a session. Appends that arrive
 *       together from several threads of one store are group-committed: one transaction and one commit for all of
 *       them, each batch all or nothing on its own (a failing one is rolled back and the others run again, each in a
 *       savepoint), each caller answered once its entries are durable. An append is two round trips: its statements
 *       sent at once, checked when they return, then the commit (docs/11-group-commit.md).</li>
 *   <li><b>Scope.</b> Every row carries the store's scope (a tenant id): a session of another scope is
 *       indistinguishable from a missing one. {@link #withScope(String)} gives a view of another scope on the same
 *       pool, unless the scope was pinned (by {@code parley.scope=} in the URI, or {@link Builder#scope}).</li>
 *   <li><b>Exact text.</b> Entry bodies, records and manifests are {@code json}, not {@code jsonb}: their exact text
 *       comes back byte for byte. Free text bound to text columns is escaped so that NUL survives
 *       ({@link PgText}).</li>
 *   <li><b>Durability.</b> Commits are durable as the server is configured; Parley assumes {@code fsync=on} and
 *       {@code synchronous_commit=on} (the defaults).</li>
 * </ul>
 * Errors: a failed connection, a server shutting down, a serialization failure are
 * {@link dev.parley.core.UnavailableException}s (retriable), and the failed operation wrote nothing.
 *
 * <p>Thread-safe: each operation borrows a connection from the data source. Closing the store closes the data source
 * only when the store opened it (from a URI) or was told to ({@link Builder#closeDataSource}); afterwards every
 * operation of the store and its views fails with an {@link dev.parley.core.UnavailableException}.
 */
public final class PostgresStore extends JdbcStore {
    private final PostgresDialect dialect;

    private PostgresStore(String uri, String scope, boolean scopePinned, PostgresDialect dialect,
                          StoreOptions options) {
        super(uri, scope, scopePinned, dialect, options);
        this.dialect = dialect;
    }

    private PostgresStore(PostgresStore root, String scope) {
        super(root, scope);
        this.dialect = root.dialect;
    }

    /**
     * A store over {@code dataSource} (the host's; not closed with the store), bound to {@code options}' scope or
     * {@value Store#DEFAULT_SCOPE}, after applying the missing migrations. The data source must lend connections of
     * pgjdbc ({@code org.postgresql.Driver}), directly or through a pool: appends send several statements in one text,
     * which pgjdbc runs one by one in a single round trip.
     *
     * @param dataSource the host's data source of a UTF-8 database; not closed with the store
     * @param options the clock, id generator and scope; the scope is bound unpinned, and a null scope binds
     *     {@value Store#DEFAULT_SCOPE}
     * @return the open store, its schema current
     * @throws dev.parley.core.UnavailableException if the database cannot be reached or migrated
     * @throws dev.parley.core.UnsupportedException if its schema is newer than this code, or it is not UTF-8
     */
    public static PostgresStore open(DataSource dataSource, StoreOptions options) {
        return builder(dataSource).options(options).build();
    }

    /**
     * A builder over {@code dataSource}, which must reach a UTF-8 database.
     *
     * @param dataSource the data source the store borrows its connections from; not closed with the store unless
     *     {@link Builder#closeDataSource(boolean)} says so
     * @return a new builder that migrates, with {@link StoreOptions#defaults()} and no pinned scope
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** Builds a {@link PostgresStore}. Not thread-safe; {@link #build()} may be called more than once. */
    public static final class Builder {
        private final DataSource dataSource;
        private @Nullable String scope;
        private boolean migrate = true;
        private boolean closeDataSource;
        private StoreOptions options = StoreOptions.defaults();

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * Binds and pins the scope (tenant): the store then refuses {@link Store#withScope} to any other, as a URI
         * with {@code parley.scope=} does. Bind it from a trusted server-side identity, never from client input.
         * Without it the store is bound, unpinned, to the options' scope or {@value Store#DEFAULT_SCOPE}.
         *
         * @param scope the scope to bind and pin; it takes precedence over the options' scope
         * @return this builder
         * @throws dev.parley.core.InvalidInputException if it is not a valid scope ({@link Scopes#require})
         */
        public Builder scope(String scope) {
            this.scope = Scopes.require(scope);
            return this;
        }

        /**
         * Whether {@link #build()} applies missing migrations (default true). With false it only checks that the
         * schema is exactly the one this code needs, for hosts that migrate in a separate step
         * ({@link PostgresSchema#migrate}).
         *
         * @param migrate true to migrate at {@link #build()}, false to validate only ({@link PostgresSchema#validate})
         * @return this builder
         */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * Whether closing the store also closes the data source (default false: the host owns it).
         *
         * @param close true to close the data source with the store; it has effect only on a data source that is
         *     {@link AutoCloseable}
         * @return this builder
         */
        public Builder closeDataSource(boolean close) {
            this.closeDataSource = close;
            return this;
        }

        /**
         * Clock, id generator and (unpinned) scope.
         *
         * @param options the options; their scope, or {@value Store#DEFAULT_SCOPE} when null, is bound unless
         *     {@link #scope(String)} pinned one
         * @return this builder
         */
        public Builder options(StoreOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Migrates (or validates) the schema and returns the store.
         *
         * @return a new store; each call migrates or validates again and returns another store over the same data
         *     source
         * @throws dev.parley.core.UnavailableException if the database cannot be reached, or its schema is behind and
         *     migration is off ({@code migrate(false)})
         * @throws dev.parley.core.UnsupportedException if its schema is newer than this code, or it is not UTF-8
         */
        public PostgresStore build() {
            String where = PostgresSchema.describe(dataSource);
            boolean pinned = scope != null;
            String bound = scope != null ? scope : options.scope() != null ? options.scope() : DEFAULT_SCOPE;
            return build(where, bound, pinned);
        }

        /** The store for {@link PostgresStoreProvider}, named by its URI. */
        PostgresStore build(String uri, String boundScope, boolean pinned) {
            if (migrate) {
                PostgresSchema.migrate(dataSource);
            } else {
                PostgresSchema.validate(dataSource);
            }
            AutoCloseable owned = closeDataSource && dataSource instanceof AutoCloseable c ? c : null;
            return new PostgresStore(uri, boundScope, pinned,
                    new PostgresDialect(PostgresSchema.describe(dataSource), dataSource, owned), options);
        }
    }

    /**
     * The data source the store borrows its connections from.
     *
     * @return the data source given to {@link #open(DataSource, StoreOptions)} or {@link #builder(DataSource)}, or the
     *     pool the store opened from its URI; the same for every view of the store
     */
    public DataSource dataSource() {
        return dialect.dataSource();
    }

    @Override
    protected Store view(String scope) {
        return new PostgresStore(this, scope);
    }
}
