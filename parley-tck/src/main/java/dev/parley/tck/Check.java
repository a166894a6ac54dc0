package dev.parley.tck;

import java.util.Objects;

/** Assertions for scenarios, independent of any test framework. Failures are {@link AssertionError}s. */
public final class Check {
    private Check() {}

    /** @throws AssertionError with {@code message} unless {@code condition} */
    public static void that(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    /** @throws AssertionError unless the two are equal */
    public static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) {
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    /** A code block that may throw. */
    @FunctionalInterface
    public interface Action {
        /**
         * Runs the code block.
         *
         * @throws Exception anything; {@link Check#fails} catches it and checks its type
         */
        void run() throws Exception;
    }

    /**
     * Runs the action and returns what it threw.
     *
     * @throws AssertionError if it threw nothing or something not of {@code type}
     */
    public static <T extends Throwable> T fails(Class<T> type, String what, Action action) {
        try {
            action.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            throw new AssertionError(what + ": expected " + type.getSimpleName() + " but got " + t, t);
        }
        throw new AssertionError(what + ": expected " + type.getSimpleName() + " but nothing was thrown");
    }
}
