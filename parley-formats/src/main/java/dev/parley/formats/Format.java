package dev.parley.formats;

import dev.parley.core.InvalidInputException;
import java.util.Arrays;

/** The transcript formats Parley reads and writes, by their command-line names. */
public enum Format {
    /** Parley's own JSONL: a session header line, then one canonical entry per line. Exact for every session. */
    PARLEY("parley", true),
    /** Claude Code session files ({@code ~/.claude/projects/…/<session>.jsonl} and {@code subagents/agent-*.jsonl}). */
    CLAUDE_CODE("claude-code", true),
    /** pi coding-agent session files, versions 1 to 3. */
    PI("pi", true),
    /** OpenAI chat-completions {@code messages} arrays (one conversation, or a file of many). */
    OPENAI_CHAT("openai-chat", false),
    /** Anthropic Messages request bodies: {@code {model, messages}}. */
    ANTHROPIC_MESSAGES("anthropic-messages", false),
    /** OpenAI Codex CLI rollouts ({@code ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl}). */
    CODEX("codex", true),
    /** OpenAI Responses API conversations: a request body whose {@code input} is a list of items. */
    OPENAI_RESPONSES("openai-responses", false),
    /** Gemini CLI session files ({@code ~/.gemini/tmp/<project>/chats/session-*.json}). */
    GEMINI("gemini", false),
    /** Aider chat histories ({@code .aider.chat.history.md}): Markdown, one session per start header. */
    AIDER("aider", false);

    private final String cliName;
    private final boolean lineBased;

    Format(String cliName, boolean lineBased) {
        this.cliName = cliName;
        this.lineBased = lineBased;
    }

    /**
     * The name used by {@code --format} and in import reports.
     *
     * @return the command-line name, such as {@code "claude-code"}
     */
    public String cliName() {
        return cliName;
    }

    /**
     * The name with its indefinite article, for messages: "an openai-chat", "a codex".
     *
     * @return "a " or "an " followed by {@link #cliName()}
     */
    public String withArticle() {
        return ("aeiou".indexOf(cliName.charAt(0)) >= 0 ? "an " : "a ") + cliName;
    }

    /**
     * Whether the format is JSONL with one record per entry (else one JSON document per conversation).
     *
     * @return true for a JSONL format
     */
    public boolean lineBased() {
        return lineBased;
    }

    /**
     * The format with this name.
     *
     * @param name the command-line name, as {@link #cliName()} gives it; matched exactly, case included
     * @return the format
     * @throws InvalidInputException naming the known formats if there is none
     */
    public static Format of(String name) {
        for (Format f : values()) {
            if (f.cliName.equals(name)) {
                return f;
            }
        }
        throw new InvalidInputException("unknown format '" + name + "'; known formats: "
                + Arrays.stream(values()).map(Format::cliName).toList());
    }

    @Override
    public String toString() {
        return cliName;
    }
}
