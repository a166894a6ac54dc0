package dev.parley.formats;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Collects what an import reports. */
final class Recorder implements Importer.Listener {
    final List<ImportResult> sessions = new ArrayList<>();
    final List<ImportProblem> problems = new ArrayList<>();
    final List<Path> files = new ArrayList<>();
    final List<Path> skipped = new ArrayList<>();

    @Override
    public void session(ImportResult result) {
        sessions.add(result);
    }

    @Override
    public void problem(ImportProblem problem) {
        problems.add(problem);
    }

    @Override
    public void fileDone(Path file) {
        files.add(file);
    }

    @Override
    public void skipped(Path file) {
        skipped.add(file);
    }

    List<ImportProblem> fatal() {
        return problems.stream().filter(ImportProblem::fatal).toList();
    }
}
