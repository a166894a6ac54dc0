package dev.parley.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in-process and keeps what it printed. */
record CliRun(int exit, String out, String err) {
    static CliRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = ParleyCommand.run(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(exit, out.toString(), err.toString());
    }
}
