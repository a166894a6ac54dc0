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
import org.flywaydb.core.api.CoreMigrationType;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.flywaydb.core.extensibility.MigrationType;
import org.jspecify.annotations.Nullable;

/**
 * A Flyway migration made of SQL scripts that several databases share: each {@code ${name}} in a script is replaced by
 * the database's spelling of it (a column type, a clause), so a table is defined once for every database. Not API.
 *
 * <p>The scripts are class-path resources, read whole when the migration is built. Their statements end with a
 * semicolon at the end of a line; a line that starts with {@code --} is a comment. What this simple reading cannot
 * split safely is refused when the migration is built: a semicolon followed by more text on its line, a
 * {@code /*} comment, a dollar-quoted body.
 *
 * <p><b>History.</b> A migration that databases have run as a SQL file of a backend's own, before the tables were
 * shared, is {@linkplain #recordedAs recorded as that file was}: type SQL and the file's checksum, so a database
 * migrated by the file and one migrated by this migration have the same history, and either Parley version validates
 * either database. Any other script migration is recorded as type JDBC with the checksum of its statements
 * ({@link #contentChecksum()}). Either way the scripts must never change once released; a test pins
 * {@link #contentChecksum()}. Thread-safe (immutable).
 */
public final class ScriptMigration implements JavaMigration {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-z_]+)}");

    private final MigrationVersion version;
    private final String description;
    private final List<String> statements;
    private final int contentChecksum;
    private final @Nullable Integer recordedChecksum;

    /**
     * @param version the migration's version, as Flyway spells it ({@code "3"})
     * @param description what Flyway records as its description ({@code "scoped tables"}): for a migration recorded as
     *     a former file, that file's description
     * @param spelling the replacement of every placeholder the scripts use
     * @param loader the class loader that sees every script (the backend's, which also sees parley-jdbc's)
     * @param scripts the class-path resource names of the scripts, run in this order
     * @throws IllegalArgumentException if a script is missing, uses a placeholder {@code spelling} lacks, or holds
     *     what the reading above cannot split
     */
    public ScriptMigration(String version, String description, Map<String, String> spelling, ClassLoader loader,
                           String... scripts) {
        this.version = MigrationVersion.fromVersion(version);
        this.description = Objects.requireNonNull(description, "description");
        List<String> all = new ArrayList<>();
        for (String script : scripts) {
            all.addAll(statements(read(loader, script), script, spelling));
        }
        this.statements = List.copyOf(all);
        CRC32 crc = new CRC32();
        for (String statement : statements) {
            crc.update(statement.getBytes(StandardCharsets.UTF_8));
            crc.update('\n');
        }
        this.contentChecksum = (int) crc.getValue();
        this.recordedChecksum = null;
    }

    private ScriptMigration(ScriptMigration m, int recordedChecksum) {
        this.version = m.version;
        this.description = m.description;
        this.statements = m.statements;
        this.contentChecksum = m.contentChecksum;
        this.recordedChecksum = recordedChecksum;
    }

    /**
     * This migration as the SQL file it replaces was recorded: type SQL, with {@code checksum}, the checksum Flyway
     * computed for that file (and recorded in the history of every database it migrated).
     */
    public ScriptMigration recordedAs(int checksum) {
        return new ScriptMigration(this, checksum);
    }

    private static String read(ClassLoader loader, String script) {
        try (InputStream in = loader.getResourceAsStream(script)) {
            if (in == null) {
                throw new IllegalArgumentException("no migration script " + script + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the migration script " + script, e);
        }
    }

    private static List<String> statements(String text, String script, Map<String, String> spelling) {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        int number = 0;
        for (String line : text.split("\n", -1)) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            int semicolon = trimmed.indexOf(';');
            if (trimmed.contains("/*") || trimmed.contains("$$")
                    || (semicolon >= 0 && semicolon != trimmed.length() - 1)) {
                throw new IllegalArgumentException("the migration script " + script + " line " + number
                        + " holds a block comment, a dollar-quoted body or text after a semicolon, which a script"
                        + " migration does not split: write it as a SQL migration of the backend");
            }
            statement.append(statement.length() == 0 ? "" : "\n").append(line.stripTrailing());
            if (semicolon >= 0) {
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

    /** The CRC-32 of {@link #statements()}, each followed by a line feed, as UTF-8. */
    public int contentChecksum() {
        return contentChecksum;
    }

    @Override
    public MigrationVersion getVersion() {
        return version;
    }

    @Override
    public String getDescription() {
        return description;
    }

    /** The checksum of the file this migration is {@linkplain #recordedAs recorded as}, else the content checksum. */
    @Override
    public Integer getChecksum() {
        return recordedChecksum != null ? recordedChecksum : contentChecksum;
    }

    /** SQL for a migration {@linkplain #recordedAs recorded as} a former file, else JDBC. */
    @Override
    public MigrationType getType() {
        return recordedChecksum != null ? CoreMigrationType.SQL : CoreMigrationType.JDBC;
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
