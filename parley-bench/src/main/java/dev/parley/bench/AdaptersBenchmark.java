package dev.parley.bench;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.langchain4j.ParleyChatMemoryStore;
import dev.parley.springai.ParleyChatMemoryRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.sqlite.SQLiteConfig;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.SqliteChatMemoryRepositoryDialect;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The framework memories side by side, in one run, on SQLite files with the same settings (WAL,
 * {@code synchronous=FULL}): Spring AI's {@code MessageWindowChatMemory} over its own {@code JdbcChatMemoryRepository}
 * and over {@link ParleyChatMemoryRepository}, and LangChain4j's {@code MessageWindowChatMemory} over
 * {@link ParleyChatMemoryStore}; at conversation lengths 10, 1,000 and 2,000; with the frameworks' default window of
 * 20 messages and with a window that keeps the whole conversation; beside a raw one-row insert of the same 1 KB.
 *
 * <p>One append is one {@code memory.add(message)} of a 1 KB user or assistant message, durable on return. Measured:
 * the time per append, the part of it spent in the repository or store (the rest is the framework's window memory
 * itself, which re-reads and copies what it holds), and the bytes written per append (the process's {@code wchar}
 * from {@code /proc/self/io}: WAL frames, checkpoints and journal, all files). "Length 10" is measured over many
 * conversations that each hold 10 messages; longer lengths on one conversation that holds that many (with the window of
 * 20, Parley's log holds them all and Spring's table the last 20).
 *
 * <p>Usage: {@code java -cp parley-bench/target/parley-bench.jar dev.parley.bench.AdaptersBenchmark [--ops N]
 * [--dir DIR] [--report FILE]}; the report defaults to {@code parley-bench/reports/adapters.md}.
 */
public final class AdaptersBenchmark {
    private static final int WARMUP = 20;
    private static final int WHOLE = Integer.MAX_VALUE;
    private static final int[] LENGTHS = {10, 1_000, 2_000};
    private static final String PAD = "lorem ipsum dolor sit amet ".repeat(37).substring(0, 990);

    private AdaptersBenchmark() {}

    /**
     * Runs every case, prints the report on standard output (progress on standard error) and writes it to a file.
     *
     * @param args {@code --ops N}: measured appends per case (default 100); {@code --dir DIR}: the working directory
     *     (default {@code parley-bench/target/adapters-data}), deleted with everything in it before the run and again
     *     after it; {@code --report FILE}: where the Markdown report goes (default
     *     {@code parley-bench/reports/adapters.md}, its directory created)
     * @throws IllegalArgumentException if an argument is unknown
     * @throws NumberFormatException if {@code N} is not an integer
     * @throws ArrayIndexOutOfBoundsException if the last option has no value
     * @throws Exception if a store, SQLite or the file system fails; no report is written, and the working
     *     directory is left as the run left it
     */
    public static void main(String[] args) throws Exception {
        int ops = 100;
        Path dir = Path.of("parley-bench/target/adapters-data");
        Path report = Path.of("parley-bench/reports/adapters.md");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--ops" -> ops = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--report" -> report = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: [--ops N] [--dir DIR] [--report FILE]");
            }
        }
        AppendBenchmark.deleteTree(dir);
        Files.createDirectories(dir);
        System.err.printf(Locale.ROOT, "measuring %d appends per case in %s%n", ops, dir.toAbsolutePath());
        // The raw insert is measured before every case, on a file of its own, and its samples pooled: on a disk
        // whose speed drifts during the run, each case has raw samples from its own minutes in the pool.
        List<Result> raws = new ArrayList<>();
        List<Result> results = new ArrayList<>();
        int n = 0;
        for (int window : new int[] {20, WHOLE}) {
            for (int length : LENGTHS) {
                for (Subject subject : Subject.values()) {
                    Path where = dir.resolve("case-" + (n++));
                    Files.createDirectories(where);
                    raws.add(raw(where.resolve("raw.db"), ops));
                    Result r = subject.measure(where, window, length, ops);
                    System.err.println(r.line());
                    results.add(r);
                }
            }
        }
        // The log alone last, with the code the adapters share compiled: measured first, it paid the JIT's warm-up
        // (3.03× the raw insert against 1.48× for the adapters over it, in the run of 2026-12-04).
        raws.add(raw(dir.resolve("raw-log.db"), ops));
        Files.createDirectories(dir.resolve("log"));
        Result alone = logAppend(dir.resolve("log"), 2_000, ops);
        System.err.println(alone.line());
        results.add(0, alone);
        results.add(0, pooled(raws));
        String text = render(results, ops);
        System.out.println(text);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, text);
        System.err.println("report written to " + report.toAbsolutePath());
        AppendBenchmark.deleteTree(dir);
    }

    /** What is measured. */
    enum Subject {
        SPRING_JDBC("Spring AI window memory over JdbcChatMemoryRepository"),
        SPRING_PARLEY("Spring AI window memory over ParleyChatMemoryRepository"),
        LANGCHAIN4J_PARLEY("LangChain4j window memory over ParleyChatMemoryStore");

        final String title;

        Subject(String title) {
            this.title = title;
        }

        Result measure(Path where, int window, int length, int ops) throws Exception {
            return switch (this) {
                case SPRING_JDBC -> {
                    try (Jdbc jdbc = new Jdbc(where.resolve("spring.db"))) {
                        yield spring(this, jdbc.repository, window, length, ops, where.resolve("spring.db"));
                    }
                }
                case SPRING_PARLEY -> {
                    try (Store store = Stores.open("sqlite:" + where.resolve("parley.db"))) {
                        yield spring(this, new ParleyChatMemoryRepository(store), window, length, ops,
                                where.resolve("parley.db"));
                    }
                }
                case LANGCHAIN4J_PARLEY -> {
                    try (Store store = Stores.open("sqlite:" + where.resolve("parley.db"))) {
                        yield langchain4j(this, new ParleyChatMemoryStore(store), window, length, ops,
                                where.resolve("parley.db"));
                    }
                }
            };
        }
    }

    /** One measured case. */
    record Result(String what, int window, int length, long[] nanos, long[] storeNanos, long bytes) {
        double mean() {
            return Arrays.stream(nanos).average().orElse(0) / 1e6;
        }

        double p50() {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2] / 1e6;
        }

        double storeMean() {
            return Arrays.stream(storeNanos).average().orElse(0) / 1e6;
        }

        double bytesPerAppend() {
            return (double) bytes / nanos.length;
        }

        String line() {
            return String.format(Locale.ROOT, "%s, window %s, length %,d: mean %.3f ms, in store %.3f ms, %,.0f B",
                    what, window == WHOLE ? "whole" : window, length, mean(), storeMean(), bytesPerAppend());
        }
    }

    // ---- the raw insert ----

    static Result raw(Path file, int ops) throws SQLException {
        long[] nanos = new long[ops];
        long bytes;
        try (Connection c = sqlite(file)) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (body) VALUES (?)")) {
                c.setAutoCommit(false);
                long before = 0;
                for (int i = -WARMUP; i < ops; i++) {
                    if (i == 0) {
                        before = writtenBytes();
                    }
                    long t = System.nanoTime();
                    insert.setString(1, text(i));
                    insert.executeUpdate();
                    c.commit();
                    if (i >= 0) {
                        nanos[i] = System.nanoTime() - t;
                    }
                }
                bytes = writtenBytes() - before;
            }
        }
        return new Result("raw: SQLite one-row insert of 1 KB, one transaction", 0, 0, nanos, new long[ops], bytes);
    }

    /** The raw measurements of a run as one: every sample, and the bytes of them all. */
    static Result pooled(List<Result> raws) {
        long[] nanos = raws.stream().flatMapToLong(r -> Arrays.stream(r.nanos())).toArray();
        long bytes = raws.stream().mapToLong(Result::bytes).sum();
        return new Result(raws.get(0).what(), 0, 0, nanos, new long[nanos.length], bytes);
    }

    static Connection sqlite(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    /** Spring AI's JDBC repository on one SQLite connection (WAL, FULL), with the schema Spring AI ships. */
    static final class Jdbc implements AutoCloseable {
        final SingleConnectionDataSource dataSource;
        final JdbcChatMemoryRepository repository;

        Jdbc(Path file) throws SQLException, IOException {
            dataSource = new SingleConnectionDataSource(sqlite(file), true);
            String schema;
            try (var in = JdbcChatMemoryRepository.class.getResourceAsStream(
                    "/org/springframework/ai/chat/memory/repository/jdbc/schema-sqlite.sql")) {
                schema = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            for (String statement : schema.split(";")) {
                if (!statement.isBlank()) {
                    jdbc.execute(statement);
                }
            }
            repository = JdbcChatMemoryRepository.builder().jdbcTemplate(jdbc)
                    .dialect(new SqliteChatMemoryRepositoryDialect())
                    .transactionManager(new DataSourceTransactionManager(dataSource)).build();
        }

        @Override
        public void close() {
            dataSource.destroy();
        }
    }

    // ---- the frameworks ----

    static Result spring(Subject subject, ChatMemoryRepository repository, int window, int length, int ops,
                         Path file) throws SQLException {
        TimedRepository timed = new TimedRepository(repository);
        MessageWindowChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(timed)
                .maxMessages(window).build();
        IntFunction<Message> message = i -> i % 2 == 0 ? new UserMessage(text(i)) : new AssistantMessage(text(i));
        int conversations = length <= 10 ? ops + WARMUP : 1;
        for (int c = 0; c < conversations; c++) {
            List<Message> all = new ArrayList<>();
            for (int i = 0; i < length; i++) {
                all.add(message.apply(i));
            }
            repository.saveAll("c-" + c, all);
            if (window < length) {
                repository.saveAll("c-" + c, new ArrayList<>(all.subList(length - window, length)));
            }
        }
        checkpoint(file);
        return run(subject, window, length, ops, timed.nanos, (c, i) -> memory.add("c-" + c, message.apply(i)),
                conversations);
    }

    static Result langchain4j(Subject subject, ChatMemoryStore store, int window, int length, int ops, Path file)
            throws SQLException {
        TimedStore timed = new TimedStore(store);
        IntFunction<ChatMessage> message = i -> i % 2 == 0 ? dev.langchain4j.data.message.UserMessage.from(text(i))
                : AiMessage.from(text(i));
        int conversations = length <= 10 ? ops + WARMUP : 1;
        List<dev.langchain4j.memory.chat.MessageWindowChatMemory> memories = new ArrayList<>();
        for (int c = 0; c < conversations; c++) {
            List<ChatMessage> all = new ArrayList<>();
            for (int i = 0; i < length; i++) {
                all.add(message.apply(i));
            }
            store.updateMessages("c-" + c, all);
            if (window < length) {
                store.updateMessages("c-" + c, new ArrayList<>(all.subList(length - window, length)));
            }
            memories.add(dev.langchain4j.memory.chat.MessageWindowChatMemory.builder().id("c-" + c)
                    .maxMessages(window).chatMemoryStore(timed).build());
        }
        checkpoint(file);
        return run(subject, window, length, ops, timed.nanos, (c, i) -> memories.get(c).add(message.apply(i)),
                conversations);
    }

    /** Moves what the fill wrote out of the WAL, so that the measured appends do not pay for its checkpoint. */
    static void checkpoint(Path file) throws SQLException {
        try (Connection c = sqlite(file); Statement st = c.createStatement()) {
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    /** Parley's message log alone, no framework: one append of the same message to a session of {@code length}. */
    static Result logAppend(Path where, int length, int ops) throws SQLException {
        try (Store store = Stores.open("sqlite:" + where.resolve("parley.db"))) {
            dev.parley.core.SessionId session = dev.parley.core.SessionId.of("log");
            dev.parley.core.conversation.AgentSession handle = new dev.parley.core.conversation.AgentSession(
                    store.log(), session, dev.parley.core.AgentId.MAIN, dev.parley.core.IdGenerator.uuidV7(),
                    java.time.Clock.systemUTC());
            List<dev.parley.core.model.Message> fill = new ArrayList<>();
            for (int i = 0; i < length; i++) {
                fill.add(dev.parley.core.model.Message.user(text(i)));
            }
            handle.appendMessages(fill);
            checkpoint(where.resolve("parley.db"));
            long[] none = new long[1];
            return run(null, 0, length, ops, none,
                    (c, i) -> handle.appendMessages(List.of(dev.parley.core.model.Message.user(text(i)))), 1);
        }
    }

    interface Append {
        void append(int conversation, int index);
    }

    static Result run(@org.jspecify.annotations.Nullable Subject subject, int window, int length, int ops, long[] storeClock, Append append,
                      int conversations) {
        long[] nanos = new long[ops];
        long[] store = new long[ops];
        long before = 0;
        for (int i = -WARMUP; i < ops; i++) {
            if (i == 0) {
                before = writtenBytes();
            }
            int conversation = conversations == 1 ? 0 : i + WARMUP;
            long inStore = storeClock[0];
            long t = System.nanoTime();
            append.append(conversation, length + i + WARMUP);
            long elapsed = System.nanoTime() - t;
            if (i >= 0) {
                nanos[i] = elapsed;
                store[i] = storeClock[0] - inStore;
            }
        }
        long bytes = writtenBytes() - before;
        return new Result(subject == null ? "Parley message log alone (AgentSession.appendMessages)" : subject.title,
                window, length, nanos, store, bytes);
    }

    /** Times the calls into a Spring AI repository. */
    static final class TimedRepository implements ChatMemoryRepository {
        final ChatMemoryRepository delegate;
        final long[] nanos = new long[1];

        TimedRepository(ChatMemoryRepository delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<String> findConversationIds() {
            return delegate.findConversationIds();
        }

        @Override
        public List<Message> findByConversationId(String conversationId) {
            long t = System.nanoTime();
            try {
                return delegate.findByConversationId(conversationId);
            } finally {
                nanos[0] += System.nanoTime() - t;
            }
        }

        @Override
        public void saveAll(String conversationId, List<Message> messages) {
            long t = System.nanoTime();
            try {
                delegate.saveAll(conversationId, messages);
            } finally {
                nanos[0] += System.nanoTime() - t;
            }
        }

        @Override
        public void deleteByConversationId(String conversationId) {
            delegate.deleteByConversationId(conversationId);
        }
    }

    /** Times the calls into a LangChain4j store. */
    static final class TimedStore implements ChatMemoryStore {
        final ChatMemoryStore delegate;
        final long[] nanos = new long[1];

        TimedStore(ChatMemoryStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<ChatMessage> getMessages(Object memoryId) {
            long t = System.nanoTime();
            try {
                return delegate.getMessages(memoryId);
            } finally {
                nanos[0] += System.nanoTime() - t;
            }
        }

        @Override
        public void updateMessages(Object memoryId, List<ChatMessage> messages) {
            long t = System.nanoTime();
            try {
                delegate.updateMessages(memoryId, messages);
            } finally {
                nanos[0] += System.nanoTime() - t;
            }
        }

        @Override
        public void deleteMessages(Object memoryId) {
            delegate.deleteMessages(memoryId);
        }
    }

    static String text(int i) {
        return String.format(Locale.ROOT, "message %08d ", i) + PAD;
    }

    /** Bytes this process has passed to write calls so far ({@code wchar} of {@code /proc/self/io}). */
    static long writtenBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("wchar:")) {
                    return Long.parseLong(line.substring(6).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    // ---- the report ----

    static String render(List<Result> results, int ops) {
        Result raw = results.get(0);
        StringBuilder out = new StringBuilder();
        out.append("# Framework chat memories on SQLite: Spring AI's JDBC repository beside Parley's adapters\n\n");
        out.append(String.format(Locale.ROOT, "%d appends per case after %d warm-up appends, one run; each append is "
                + "one `memory.add(message)` of a 1 KB message, durable on return; every SQLite file in WAL mode with "
                + "`synchronous=FULL`. \"In store\" is the part of the append spent in the repository or store; the "
                + "rest is the framework's window memory itself. Bytes are what the process wrote (WAL, database, "
                + "journal). The raw insert is measured before every case (%d appends each time, on a file of its own) "
                + "and its samples pooled, so that a disk whose speed drifts during the run weighs on both sides "
                + "alike. Java %s, %s, %d cores.%n%n", ops, WARMUP, ops, System.getProperty("java.version"),
                System.getProperty("os.name"), Runtime.getRuntime().availableProcessors()));
        out.append("| case | window | length | p50 ms | mean ms | in store ms | mean ÷ raw | bytes/append | bytes ÷ raw |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            boolean isRaw = r == raw;
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f | %s | %s | %,.0f | %s |%n", r.what(),
                    isRaw || r.window() == 0 ? "—" : r.window() == WHOLE ? "whole" : Integer.toString(r.window()),
                    isRaw ? "—" : String.format(Locale.ROOT, "%,d", r.length()), r.p50(), r.mean(),
                    isRaw ? "—" : String.format(Locale.ROOT, "%.3f", r.storeMean()),
                    isRaw ? "—" : String.format(Locale.ROOT, "%.2f", r.mean() / raw.mean()), r.bytesPerAppend(),
                    isRaw ? "—" : String.format(Locale.ROOT, "%.2f", r.bytesPerAppend() / raw.bytesPerAppend())));
        }
        out.append("\n## The target: default window of 20, at 2,000 messages\n\n");
        out.append("Each adapter's append within 1.5× of the raw insert and flat from 10 to 2,000; bytes within 3× of the "
                + "raw insert's.\n\n");
        out.append("| adapter | mean ÷ raw at 2,000 | 2,000 ÷ 10 | bytes ÷ raw at 2,000 | met |\n|---|---:|---:|---:|---|\n");
        for (Subject s : Subject.values()) {
            Result small = find(results, s, 20, 10);
            Result big = find(results, s, 20, 2_000);
            double time = big.mean() / raw.mean();
            double flat = big.mean() / small.mean();
            double bytes = big.bytesPerAppend() / raw.bytesPerAppend();
            boolean met = time <= 1.5 && flat <= 1.25 && bytes <= 3;
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %s |%n", s.title, time, flat, bytes,
                    s == Subject.SPRING_JDBC ? "(the peer)" : met ? "yes" : "**no**"));
        }
        out.append("\n");
        return out.toString();
    }

    static Result find(List<Result> results, Subject s, int window, int length) {
        return results.stream().filter(r -> r.what().equals(s.title) && r.window() == window && r.length() == length)
                .findFirst().orElseThrow();
    }
}
