package dev.parley.tck;

import java.util.Objects;

/** Assertions for scenarios, independent of any test framework. Failures are {@link AssertionError}s. */
public final class Check {
    private Check() {}

    /**
     * Checks a condition.
     *
     * @param condition what must hold
     * @param message the failure's message
     * @throws AssertionError with {@code message} unless {@code condition}
     */
    public static void that(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    /**
     * Checks that two values are equal ({@link Objects#equals}).
     *
     * @param expected the value the contract asks for
     * @param actual the value the store gave
     * @param what what is compared, for the message
     * @throws AssertionError unless the two are equal; its message names {@code what} and both values
     */
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
     * @param <T> the type of throwable expected
     * @param type the type of throwable expected; a subtype passes too
     * @param what what is checked, for the message
     * @param action the code that must throw
     * @return what the action threw
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
