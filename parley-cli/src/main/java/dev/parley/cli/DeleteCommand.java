package dev.parley.cli;

import dev.parley.core.SessionId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley delete SESSION}. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a session with all its entries.")
final class DeleteCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "A session id or a unique prefix of one.")
    String session;

    @Override
    public Integer call() {
        SessionId id = root.resolveSessionOrMemory(session);
        root.catalog().delete(id);
        spec.commandLine().getOut().println("deleted " + id);
        return 0;
    }
}
