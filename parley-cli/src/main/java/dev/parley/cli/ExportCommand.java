package dev.parley.cli;

import dev.parley.core.AgentId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.IoErrors;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreUri;
import dev.parley.files.JsonlStore;
import dev.parley.formats.Exporter;
import dev.parley.formats.Format;
import dev.parley.remote.RemoteStore;
import dev.parley.sqlite.SqliteStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley export SESSION --format F}: writes a session in a transcript format. */
@Command(name = "export", mixinStandardHelpOptions = true, description = {"Write a session in a transcript format.",
        "Entries imported from that format come back exactly as they were read.",
        "A conversion is valid for the target's API; what it leaves out or cuts is said on standard error."})
final class ExportCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "A session id or a unique prefix of one.")
    String session;

    @Option(names = "--format", required = true, paramLabel = "FORMAT",
            description = "parley, claude-code, pi, codex, gemini, aider, openai-chat, openai-responses or anthropic-messages.")
    String format;

    @Option(names = "--full", description = "Convert the whole history, not only the conversation after the latest compaction.")
    boolean full;

    @Option(names = "--agent", paramLabel = "AGENT", description = "The agent to export (default: the only one, or main).")
    String agent;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output"
            + " (replaced whole through a new file, or left as it was if the export fails, keeping its permissions and"
            + " owner; a pipe or device is written into, and so, as > would, is a file with other hard links or one"
            + " this process cannot replace; - is standard output; never one of the store's own files).")
    Path output;

    @Override
    public Integer call() {
        Format f = Format.of(format);
        SessionId id = root.resolveSessionOrMemory(session);
        AgentId asked = agent == null ? null : new AgentId(agent);
        Path target = fileToWrite(); // before the export and its notes: an output refused is refused first
        Exporter.Result result = new Exporter(root.existingStore()).export(id, f, asked, full);
        if (result.choseAmongAgents(asked)) {
            spec.commandLine().getErr().println("parley: exporting agent " + result.agent()
                    + "; the session's agents are " + result.agents() + " (choose one with --agent)");
        }
        for (String note : result.notes()) {
            spec.commandLine().getErr().println("parley: export to " + f.cliName() + ": " + note);
        }
        spec.commandLine().getErr().flush();
        String text = result.text();
        if (toStandardOutput()) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(text);
            out.flush();
        } else if (target == null) {
            // A named pipe, a terminal, /dev/stdout: written into, never replaced by a regular file.
            try (var out = Files.newOutputStream(output, java.nio.file.StandardOpenOption.WRITE)) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UnavailableException("cannot write " + output + ": " + IoErrors.describe(e), e);
            }
        } else {
            writeFile(output, target, text);
        }
        return 0;
    }

    /** Whether the export goes to standard output: no {@code -o}, or {@code -o -}. */
    private boolean toStandardOutput() {
        return output == null || output.toString().equals("-");
    }

    /**
     * The regular file {@code -o} names, as an absolute path; null for standard output and for an existing file that is
     * not a regular one (a pipe, a terminal), which is written into.
     *
     * @throws InvalidInputException if {@code -o} is empty, names a directory, a file in a directory that does not
     *     exist, or one of the store's own files
     */
    private @Nullable Path fileToWrite() {
        if (toStandardOutput() || Files.exists(output) && !Files.isRegularFile(output) && !Files.isDirectory(output)) {
            return null;
        }
        if (output.toString().isEmpty()) {
            throw new InvalidInputException("-o needs a file name, or - for standard output");
        }
        Path target = output.toAbsolutePath();
        Path parent = target.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new InvalidInputException("cannot write " + output + ": " + (Files.exists(parent)
                    ? parent + " is not a directory" : "the directory " + parent + " does not exist"));
        }
        if (Files.isDirectory(target)) {
            throw new InvalidInputException("cannot write " + output + ": it is a directory");
        }
        refuseTheStoresOwnFiles(output, target);
        return target;
    }

    /**
     * Refuses an output that is one of the store's own files: a SQLite store's database and the files beside it that
     * SQLite keeps ({@code -wal}, {@code -shm}, {@code -journal}), anything in a JSONL store's directory, and a
     * {@code remote:} store's journal and the files of its fallback store. Replacing one of them with an export
     * destroyed the store it was read from.
     *
     * @throws InvalidInputException naming the store if {@code target} is one of them
     */
    private void refuseTheStoresOwnFiles(Path output, Path target) {
        Path wanted = canonical(target);
        Store store = root.existingStore();
        List<Path> files = new ArrayList<>();
        List<Path> directories = new ArrayList<>();
        List<Path> journals = new ArrayList<>();
        if (store instanceof RemoteStore remote) {
            journals.add(remote.settings().journal()); // and the files named after it (its conflicts)
            StoreUri fallback = StoreUri.parse(remote.settings().fallbackUri());
            if (fallback.scheme().equals("sqlite")) {
                addSqliteFiles(files, Path.of(fallback.location()));
            } else if (fallback.scheme().equals("jsonl")) {
                directories.add(Path.of(fallback.location()));
            }
        } else if (store instanceof SqliteStore sqlite) {
            addSqliteFiles(files, sqlite.file());
        } else if (store instanceof JsonlStore jsonl) {
            directories.add(jsonl.directory());
        }
        boolean own = files.stream().anyMatch(f -> canonical(f).equals(wanted))
                || directories.stream().anyMatch(d -> wanted.startsWith(canonical(d)))
                || journals.stream().map(ExportCommand::canonical).anyMatch(j -> j.getParent() != null
                        && j.getParent().equals(wanted.getParent())
                        && wanted.getFileName().toString().startsWith(j.getFileName().toString()));
        if (own) {
            throw new InvalidInputException("cannot write " + output + ": it is one of the files of the store "
                    + root.storeLabel() + ", which the export would destroy; write it elsewhere");
        }
    }

    /** The database and SQLite's files beside it: beside the path named, and beside the file a link leads to. */
    private static void addSqliteFiles(List<Path> files, Path database) {
        for (Path named : List.of(database, canonical(database))) {
            files.add(named);
            for (String suffix : new String[] {"-wal", "-shm", "-journal"}) {
                files.add(named.resolveSibling(named.getFileName() + suffix));
            }
        }
    }

    /** The path with every link and {@code ..} resolved, as far as it exists; the rest as it is named. */
    private static Path canonical(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            if (Files.exists(absolute)) {
                return absolute.toRealPath();
            }
            Path parent = absolute.getParent();
            return parent != null && Files.exists(parent) ? parent.toRealPath().resolve(absolute.getFileName())
                    : absolute;
        } catch (IOException e) {
            return absolute;
        }
    }

    /**
     * Writes {@code text} to the regular file {@code target}, durably: into a new file beside it (a fresh random name,
     * created exclusively, so nothing planted there is followed), fsynced and renamed over it, so a crash or a full
     * disk leaves the old file or the new one. A file that exists must be writable; its replacement is created
     * readable by its owner only and takes the file's group, owner and permissions before any content is written. A
     * file with other hard links, one whose owner or group this process cannot give a file, or one in a directory it
     * may not create files in, is written in place instead, as a shell's {@code >} writes (then a failure midway
     * leaves it cut short). Extended attributes and ACLs of a replaced file are not carried over.
     *
     * @throws UnavailableException if it cannot be written (not writable, a full disk)
     */
    private static void writeFile(Path output, Path target, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Path tmp = null;
        try {
            if (Files.isSymbolicLink(target) && Files.exists(target)) {
                target = target.toRealPath(); // write through a link, do not replace it
            }
            boolean exists = Files.exists(target);
            if (exists && !Files.isWritable(target)) {
                throw new UnavailableException("cannot write " + output + ": permission denied", null);
            }
            if (exists && linkCount(target) > 1) {
                writeInto(target, bytes, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
                return;
            }
            Path fresh = target.resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid() + "."
                    + java.util.UUID.randomUUID() + ".parley-tmp");
            try {
                tmp = exists && posix(target) ? Files.createFile(fresh, java.nio.file.attribute.PosixFilePermissions
                        .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")))
                        : Files.createFile(fresh);
            } catch (java.nio.file.AccessDeniedException e) {
                if (!exists) {
                    throw e;
                }
                writeInto(target, bytes, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING); // a directory we may
                return; // not create in, holding a file we may write
            }
            if (exists && !keepAttributes(target, tmp)) {
                writeInto(target, bytes, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
                return;
            }
            writeInto(tmp, bytes);
            Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
            try (java.nio.channels.FileChannel directory = java.nio.channels.FileChannel.open(target.getParent(),
                    java.nio.file.StandardOpenOption.READ)) {
                directory.force(true); // the rename itself, durable
            } catch (IOException e) {
                // the file is in place; a file system that cannot sync a directory only makes the rename less durable
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot write " + output + ": " + IoErrors.describe(e), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // what failed first is what the user is told
                }
            }
        }
    }

    private static boolean posix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static void writeInto(Path file, byte[] bytes, java.nio.file.OpenOption... more) throws IOException {
        java.util.Set<java.nio.file.OpenOption> options = new java.util.HashSet<>(java.util.List.of(more));
        options.add(java.nio.file.StandardOpenOption.WRITE);
        try (java.nio.channels.FileChannel out = java.nio.channels.FileChannel.open(file, options)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            out.force(true);
        }
    }

    private static int linkCount(Path file) {
        try {
            return (Integer) Files.getAttribute(file, "unix:nlink");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 1; // a file system without the attribute: no hard links to keep
        }
    }

    /**
     * Gives {@code to} the group, owner and then permissions of {@code from}, where the file system has them, before
     * any content is written into it (the permissions last, so that the file is never more open than either's).
     *
     * @return false if the owner or group cannot be given (only a privileged process may give a file away)
     */
    private static boolean keepAttributes(Path from, Path to) throws IOException {
        if (!posix(from)) {
            return true;
        }
        java.nio.file.attribute.PosixFileAttributes old =
                Files.readAttributes(from, java.nio.file.attribute.PosixFileAttributes.class);
        var view = Files.getFileAttributeView(to, java.nio.file.attribute.PosixFileAttributeView.class);
        var mine = view.readAttributes();
        try {
            if (!old.group().equals(mine.group())) {
                view.setGroup(old.group());
            }
            if (!old.owner().equals(mine.owner())) {
                view.setOwner(old.owner());
            }
        } catch (java.nio.file.FileSystemException e) {
            return false;
        }
        view.setPermissions(old.permissions());
        return true;
    }
}
