package dev.parley.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.parley.core.InvalidInputException;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Serves {@code postgres:JDBC-URL}, e.g. {@code postgres:jdbc:postgresql://db.internal:5432/app?user=parley}: a
 * {@link PostgresStore} over a HikariCP pool that the store owns and closes.
 *
 * <p>Credentials come from the URL ({@code user}, {@code password}) or, when it has none, from the environment:
 * {@code PARLEY_POSTGRES_USER} / {@code PARLEY_POSTGRES_PASSWORD}, then libpq's {@code PGUSER} / {@code PGPASSWORD}.
 * Parley's own parameters are taken out of the URL before it reaches the driver:
 * <ul>
 *   <li>{@code parley.scope} — the message log's scope (default {@value PostgresStore#DEFAULT_SCOPE});</li>
 *   <li>{@code parley.migrate} — {@code true} (default) applies missing migrations on open, {@code false} only
 *       validates the schema;</li>
 *   <li>{@code parley.pool} — the pool's maximum size (default 8).</li>
 * </ul>
 * Every other parameter goes to pgjdbc as written.
 */
public final class PostgresStoreProvider implements StoreProvider {
    static final int DEFAULT_POOL = 8;

    @Override
    public String scheme() {
        return "postgres";
    }

    @Override
    public MessageLog open(String location, StoreOptions options) {
        Parsed p = parse(location, System.getenv());
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
            return PostgresStore.builder(dataSource).scope(p.scope).migrate(p.migrate).options(options)
                    .closeDataSource(true).build();
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /** A parsed location. */
    record Parsed(String jdbcUrl, String user, String password, String scope, boolean migrate, int pool) {}

    static Parsed parse(String location, Map<String, String> env) {
        if (!location.startsWith("jdbc:postgresql:")) {
            throw new InvalidInputException("postgres: needs a JDBC URL, e.g. postgres:jdbc:postgresql://localhost:5432/app"
                    + "?user=parley; got 'postgres:" + redact(location) + "'");
        }
        int q = location.indexOf('?');
        String base = q < 0 ? location : location.substring(0, q);
        Map<String, String> params = new LinkedHashMap<>();
        List<String> kept = new ArrayList<>();
        if (q >= 0) {
            for (String pair : location.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                String value;
                try {
                    value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new InvalidInputException("the value of URL parameter '" + key
                            + "' has a malformed %-escape (write % as %25)");
                }
                if (key.startsWith("parley.")) {
                    params.put(key, value);
                } else {
                    kept.add(pair);
                    if (key.equals("user") || key.equals("password")) {
                        params.put(key, value);
                    }
                }
            }
        }
        for (String key : params.keySet()) {
            if (key.startsWith("parley.") && !List.of("parley.scope", "parley.migrate", "parley.pool").contains(key)) {
                throw new InvalidInputException("unknown store parameter '" + key
                        + "'; known: parley.scope, parley.migrate, parley.pool");
            }
        }
        String user = params.containsKey("user") ? null : firstOf(env, "PARLEY_POSTGRES_USER", "PGUSER");
        String password = params.containsKey("password") ? null : firstOf(env, "PARLEY_POSTGRES_PASSWORD", "PGPASSWORD");
        String migrate = params.getOrDefault("parley.migrate", "true");
        if (!migrate.equals("true") && !migrate.equals("false")) {
            throw new InvalidInputException("parley.migrate must be true or false, got '" + migrate + "'");
        }
        int pool;
        try {
            pool = Integer.parseInt(params.getOrDefault("parley.pool", Integer.toString(DEFAULT_POOL)));
        } catch (NumberFormatException e) {
            throw new InvalidInputException("parley.pool must be a number from 1 to 100, got '" + params.get("parley.pool")
                    + "'");
        }
        if (pool < 1 || pool > 100) {
            throw new InvalidInputException("parley.pool must be a number from 1 to 100, got " + pool);
        }
        String url = kept.isEmpty() ? base : base + "?" + String.join("&", kept);
        if (org.postgresql.Driver.parseURL(url, null) == null) {
            throw new InvalidInputException("postgres:" + redact(url) + " is not a JDBC URL the PostgreSQL driver accepts"
                    + " (jdbc:postgresql://HOST[:PORT]/DATABASE[?PARAMETERS])");
        }
        return new Parsed(url, user, password, PostgresStore.requireScope(params.getOrDefault("parley.scope",
                PostgresStore.DEFAULT_SCOPE)), Boolean.parseBoolean(migrate), pool);
    }

    private static String firstOf(Map<String, String> env, String... names) {
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
