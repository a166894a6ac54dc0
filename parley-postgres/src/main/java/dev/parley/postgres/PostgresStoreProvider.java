package dev.parley.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.parley.core.InvalidInputException;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import dev.parley.core.store.StoreUri;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Serves {@code postgres:JDBC-URL}, e.g. {@code postgres:jdbc:postgresql://db.internal:5432/app?user=parley}: a
 * {@link PostgresStore} over a HikariCP pool that the store owns and closes.
 *
 * <p>Credentials come from the URL ({@code user}, {@code password}) or, when it has none, from the environment:
 * {@code PARLEY_POSTGRES_USER} / {@code PARLEY_POSTGRES_PASSWORD}, then libpq's {@code PGUSER} / {@code PGPASSWORD}.
 * Parley's own parameters are taken out of the URL before it reaches the driver ({@link StoreUri}):
 * <ul>
 *   <li>{@code parley.scope} — binds and pins the store's scope (every backend's parameter);</li>
 *   <li>{@value #MIGRATE} — {@code true} (default) applies missing migrations on open, {@code false} only
 *       validates the schema;</li>
 *   <li>{@value #POOL} — the pool's maximum size, 1 to 100 (default {@value #DEFAULT_POOL}).</li>
 * </ul>
 * Every other parameter goes to pgjdbc as written. Passwords never appear in messages or pool names.
 */
public final class PostgresStoreProvider implements StoreProvider {
    static final String MIGRATE = "parley.migrate";
    static final String POOL = "parley.pool";
    static final int DEFAULT_POOL = 8;

    @Override
    public String scheme() {
        return "postgres";
    }

    @Override
    public Set<String> parameters() {
        return Set.of(MIGRATE, POOL);
    }

    /** Refused with the hint: PostgreSQL's own tools take a consistent copy of a live database. */
    @Override
    public void backup(StoreUri uri, java.nio.file.Path to) {
        throw new dev.parley.core.UnsupportedException("postgres: stores are backed up with PostgreSQL's own tools:"
                + " pg_dump (e.g. pg_dump -Fc -f " + to + " DBNAME) takes a consistent copy while writers keep"
                + " working, and pg_restore puts it back; Parley's tables are the parley_* tables");
    }

    /** Refused with the hint, as {@link #backup}. */
    @Override
    public void restore(java.nio.file.Path from, StoreUri uri) {
        throw new dev.parley.core.UnsupportedException("postgres: stores are restored with pg_restore (or psql for a"
                + " plain pg_dump)");
    }

    @Override
    public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
        Parsed p = parse(uri, System.getenv());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(p.jdbcUrl);
        if (p.user != null) {
            config.setUsername(p.user);
        }
        if (p.password != null) {
            config.setPassword(p.password);
        }
        config.setMaximumPoolSize(p.pool);
        config.setMinimumIdle(1);
        config.setPoolName("parley-" + redact(p.jdbcUrl));
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(5_000);
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(config);
        } catch (HikariPool.PoolInitializationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new UnavailableException("cannot connect to postgres:" + redact(p.jdbcUrl) + ": " + cause.getMessage(), e);
        }
        try {
            return PostgresStore.builder(dataSource).migrate(p.migrate).options(options).closeDataSource(true)
                    .build(uri.text(), scope, scopePinned);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /** A parsed location: the URL for the driver, credentials from the environment, Parley's settings. */
    record Parsed(String jdbcUrl, @Nullable String user, @Nullable String password, boolean migrate, int pool) {}

    static Parsed parse(StoreUri uri, Map<String, String> env) {
        String url = uri.location();
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new InvalidInputException("postgres: needs a JDBC URL, e.g. postgres:jdbc:postgresql://localhost:5432/app"
                    + "?user=parley; got 'postgres:" + redact(url) + "'");
        }
        boolean hasUser = false;
        boolean hasPassword = false;
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String pair : url.substring(q + 1).split("&")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                hasUser |= key.equals("user");
                hasPassword |= key.equals("password");
                if (eq >= 0 && (key.equals("user") || key.equals("password"))) {
                    try {
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                    } catch (IllegalArgumentException e) {
                        throw new InvalidInputException("the value of URL parameter '" + key
                                + "' has a malformed %-escape (write % as %25)");
                    }
                }
            }
        }
        String migrate = uri.parameter(MIGRATE) == null ? "true" : uri.parameter(MIGRATE);
        if (!migrate.equals("true") && !migrate.equals("false")) {
            throw new InvalidInputException(MIGRATE + " must be true or false, got '" + migrate + "'");
        }
        String poolText = uri.parameter(POOL) == null ? Integer.toString(DEFAULT_POOL) : uri.parameter(POOL);
        int pool;
        try {
            pool = Integer.parseInt(poolText);
        } catch (NumberFormatException e) {
            pool = 0;
        }
        if (pool < 1 || pool > 100) {
            throw new InvalidInputException(POOL + " must be a number from 1 to 100, got '" + poolText + "'");
        }
        if (org.postgresql.Driver.parseURL(url, null) == null) {
            throw new InvalidInputException("postgres:" + redact(url) + " is not a JDBC URL the PostgreSQL driver accepts"
                    + " (jdbc:postgresql://HOST[:PORT]/DATABASE[?PARAMETERS])");
        }
        return new Parsed(url, hasUser ? null : firstOf(env, "PARLEY_POSTGRES_USER", "PGUSER"),
                hasPassword ? null : firstOf(env, "PARLEY_POSTGRES_PASSWORD", "PGPASSWORD"), migrate.equals("true"), pool);
    }

    private static @Nullable String firstOf(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return null;
    }

    /** The URL with any password value replaced by {@code ***}, for messages and pool names. */
    static String redact(String url) {
        return dev.parley.core.store.Stores.redact(url);
    }
}
