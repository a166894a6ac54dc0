package dev.parley.cli;

import dev.parley.core.store.Stores;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley restore --from PATH}: puts a backup where the store URI names. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Put a copy taken by parley backup where --store names; nothing may be stored there yet "
                + "(exit status 4 otherwise). The restored store is opened once to check it."})
final class RestoreCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "PATH", description = "The backup.")
    Path from;

    @Override
    public Integer call() {
        Stores.restore(from, root.creatableStoreUri());
        spec.commandLine().getOut().println("restored " + from.toAbsolutePath() + " to " + root.storeLabel());
        return 0;
    }
}
