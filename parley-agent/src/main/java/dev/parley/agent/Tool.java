package dev.parley.agent;

import dev.parley.core.RawJson;

/**
 * A tool the model can call. Calls run on the step's thread, one at a time, in the order the model asked for them.
 */
public interface Tool {

    /**
     * The tool's name, description and argument schema.
     *
     * @return the spec; its name must be unique among the agent's tools
     */
    ToolSpec spec();

    /**
     * Runs the tool.
     *
     * @param arguments the arguments as the model wrote them
     * @return the result; a failure the model should see is a result with {@code isError}
     * @throws Exception for a failure of the tool itself, which the agent reports to the model as an error result;
     *     except an {@link InterruptedException}, or any failure with the thread's interrupt status set (an agent the
     *     tool runs was interrupted): the agent's step ends with {@link IllegalStateException}, no result is stored,
     *     and the call runs again when the agent resumes
     */
    Output call(RawJson arguments) throws Exception;

    /**
     * A tool's result.
     *
     * @param text the text the model sees
     * @param isError whether the call failed
     */
    record Output(String text, boolean isError) {
        /**
         * A successful result with this text.
         *
         * @param text the text the model sees
         * @return a result with {@code isError} false
         */
        public static Output ok(String text) {
            return new Output(text, false);
        }

        /**
         * A failed result with this text, which the model sees as an error ({@code isError} true).
         *
         * @param text the text the model sees
         * @return a result with {@code isError} true
         */
        public static Output error(String text) {
            return new Output(text, true);
        }
    }
}
