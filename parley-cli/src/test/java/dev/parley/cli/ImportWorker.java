package dev.parley.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A process of {@link ConcurrentImportProcessesTest}: waits until the given wall-clock millisecond, so that every
 * worker starts at once whatever its JVM's start-up took, then runs the command line and exits with its status.
 * Arguments: the start time in epoch milliseconds, then the command line.
 */
public final class ImportWorker {
    private ImportWorker() {}

    public static void main(String[] args) throws InterruptedException {
        long wait = Long.parseLong(args[0]) - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(ParleyCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err));
    }
}
