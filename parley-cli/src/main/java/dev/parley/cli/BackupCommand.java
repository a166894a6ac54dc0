package dev.parley.cli;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley backup --to PATH}: a consistent copy of the store while its writers keep working. */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Copy the whole store (every scope) to PATH while agents keep writing: the copy holds every "
                + "write acknowledged before the backup began, whole batches and records only.",
                "sqlite: through SQLite's online backup (PATH is a file); jsonl: file by file under the files' writer "
                        + "locks (PATH is a directory). PostgreSQL has its own tools: use pg_dump (exit status 9).",
                "Restore with parley restore --from PATH --store URI."})
final class BackupCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--to", required = true, paramLabel = "PATH", description = "Where the copy goes (must not exist).")
    Path to;

    @Override
    public Integer call() {
        root.requireExistingStore(); // a mistyped store path is an error, not an empty store created and backed up
        Path parent = to.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            // As export -o: a mistyped path must not leave a tree of directories behind.
            throw new InvalidInputException("cannot back up to " + to + ": the directory " + parent + " does not exist");
        }
        Stores.backup(root.storeUri(), to);
        spec.commandLine().getOut().println("backed up " + root.storeLabel() + " to " + to.toAbsolutePath());
        return 0;
    }
}
