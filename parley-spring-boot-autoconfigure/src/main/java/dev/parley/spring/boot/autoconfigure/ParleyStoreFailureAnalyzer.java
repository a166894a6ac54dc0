package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.ErrorCode;
import dev.parley.core.ParleyException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Reports a start-up that failed because the store of {@code parley.store} could not be opened as Spring Boot reports
 * its own configuration errors ("APPLICATION FAILED TO START", a description and an action) instead of a stack trace
 * of some 90 lines with Parley's message at its end. It analyses only a failure to create the {@code parleyStore} bean
 * ({@link ParleyAutoConfiguration#parleyStore}) whose cause is a {@link ParleyException}; any other failure, a
 * {@code ParleyException} thrown by the application's own beans included, is left to the analyzers after it.
 *
 * <p>Registered in {@code META-INF/spring.factories}; stateless and thread-safe.
 */
public final class ParleyStoreFailureAnalyzer implements FailureAnalyzer {

    /** The name of the bean whose failure this analyses: {@link ParleyAutoConfiguration#parleyStore}'s. */
    static final String STORE_BEAN = "parleyStore";

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        boolean openingTheStore = false;
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof BeanCreationException b && STORE_BEAN.equals(b.getBeanName())) {
                openingTheStore = true;
            } else if (openingTheStore && t instanceof ParleyException p) {
                return new FailureAnalysis("Parley could not open the store that parley.store names (or, when it is"
                        + " not set, the embedded default): " + p.getMessage(), action(p.code()), p);
            }
        }
        return null;
    }

    private static String action(ErrorCode code) {
        return switch (code) {
            case INVALID_INPUT -> "Set parley.store to a store URI (sqlite:PATH, jsonl:DIR, postgres:JDBC-URL,"
                    + " remote:URL, memory:), and put the module of its backend on the class path: dev.parley:"
                    + "parley-sqlite for sqlite:, parley-files for jsonl:, parley-postgres for postgres:, parley-remote"
                    + " for remote:.";
            case UNAVAILABLE -> "Make the store reachable and writable by this application (the database server"
                    + " running, the file's directory writable, the disk not full), or set parley.store to another"
                    + " store.";
            case CORRUPT_RECORD -> "The store holds something Parley cannot read: restore it from a backup"
                    + " (parley restore), or set parley.store to another store.";
            case UNSUPPORTED -> "The store was written by a newer Parley, or needs what this one does not offer:"
                    + " upgrade Parley, or set parley.store to another store.";
            default -> "Correct parley.store, or the store it names.";
        };
    }
}
