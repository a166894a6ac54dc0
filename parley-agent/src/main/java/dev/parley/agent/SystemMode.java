package dev.parley.agent;

/** How {@link Agent#addSystemMessage} places a system message. */
public enum SystemMode {
    /** The system prompt: sent to the provider as the system prompt; the latest one wins. */
    PROMPT,
    /** A note in the conversation, at its place (a reminder, an environment change). */
    NOTE
}
