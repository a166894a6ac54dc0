package dev.parley.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * A Flyway migration made of SQL scripts that several databases share: each {@code ${name}} in a script is replaced by
 * the database's spelling of it (a column type, a clause), so a table is defined once for every database. The scripts
 * are class-path resources, read whole when the migration is built; their statements end with a semicolon at the end
 * of a line and hold none elsewhere, and lines that start with {@code --} are comments. Not API.
 *
 * <p>The checksum Flyway records is the CRC-32 of the statements as this database runs them, so a script edited after
 * a database ran it fails Flyway's validation of that database, as an edited SQL migration does. Thread-safe
 * (immutable).
 */
public final class ScriptMigration implements JavaMigration {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-z_]+)}");

    private final MigrationVersion version;
    private final String description;
    private final List<String> statements;
    private final int checksum;

    /**
     * @param version the migration's version, as Flyway spells it ({@code "3"})
     * @param description what Flyway records as its description ({@code "scoped tables"})
     * @param spelling the replacement of every placeholder the scripts use
     * @param scripts the class-path resource names of the scripts, run in this order
     * @throws IllegalArgumentException if a script is missing or uses a placeholder {@code spelling} lacks
     */
    public ScriptMigration(String version, String description, Map<String, String> spelling, String... scripts) {
        this.version = MigrationVersion.fromVersion(version);
        this.description = Objects.requireNonNull(description, "description");
        List<String> all = new ArrayList<>();
        for (String script : scripts) {
            all.addAll(statements(script, spelling));
        }
        this.statements = List.copyOf(all);
        CRC32 crc = new CRC32();
        for (String statement : statements) {
            crc.update(statement.getBytes(StandardCharsets.UTF_8));
            crc.update('\n');
        }
        this.checksum = (int) crc.getValue();
    }

    private static List<String> statements(String script, Map<String, String> spelling) {
        String text;
        try (InputStream in = ScriptMigration.class.getClassLoader().getResourceAsStream(script)) {
            if (in == null) {
                throw new IllegalArgumentException("no migration script " + script + " on the class path");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the migration script " + script, e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            statement.append(statement.length() == 0 ? "" : "\n").append(line.stripTrailing());
            if (trimmed.endsWith(";")) {
                statement.setLength(statement.length() - 1);
                statements.add(replace(statement.toString(), spelling, script));
                statement.setLength(0);
            }
        }
        if (statement.length() > 0) {
            throw new IllegalArgumentException("the migration script " + script + " ends inside a statement");
        }
        return statements;
    }

    private static String replace(String statement, Map<String, String> spelling, String script) {
        Matcher m = PLACEHOLDER.matcher(statement);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = spelling.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("the migration script " + script + " uses ${" + m.group(1)
                        + "}, which this database does not spell");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /** The statements this migration runs, in order, as this database runs them. */
    public List<String> statements() {
        return statements;
    }

    @Override
    public MigrationVersion getVersion() {
        return version;
    }

    @Override
    public String getDescription() {
        return description;
    }

    @Override
    public Integer getChecksum() {
        return checksum;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        try (Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }
}
