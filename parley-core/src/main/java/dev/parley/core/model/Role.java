package dev.parley.core.model;

import java.util.Objects;

/**
 * Who a message is from. The four standard roles are constants; any other role (pi's {@code bashExecution},
 * Planck's {@code summary}, a compaction summary) is kept by name, never dropped or coerced.
 *
 * @param name the role's name, non-blank
 */
public record Role(String name) {
    /** Instructions to the model. */
    public static final Role SYSTEM = new Role("system");
    /** A human (or an orchestrator speaking as one). */
    public static final Role USER = new Role("user");
    /** The model. */
    public static final Role ASSISTANT = new Role("assistant");
    /** Results of tool calls; the content is {@link ContentBlock.ToolResult} blocks. */
    public static final Role TOOL = new Role("tool");

    /** Role of the message a compaction contributes to a conversation (its summary). */
    public static final Role COMPACTION_SUMMARY = new Role("compactionSummary");
    /** Role of the message a branch summary contributes to a conversation. */
    public static final Role BRANCH_SUMMARY = new Role("branchSummary");

    /**
     * Keeps {@code name} as given, case and all; a role named like a constant equals that constant.
     *
     * @param name the role's name
     * @throws NullPointerException if {@code name} is null
     * @throws dev.parley.core.InvalidInputException if {@code name} is blank
     */
    public Role {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new dev.parley.core.InvalidInputException("role name is blank");
        }
    }

    /**
     * The role with this name: one of the constants when it matches, otherwise a custom role.
     *
     * @param name the role's name, case-sensitive
     * @return the constant for {@code system}, {@code user}, {@code assistant} or {@code tool}; else a new role
     * @throws NullPointerException if {@code name} is null
     * @throws dev.parley.core.InvalidInputException if {@code name} is blank
     */
    public static Role of(String name) {
        return switch (name) {
            case "system" -> SYSTEM;
            case "user" -> USER;
            case "assistant" -> ASSISTANT;
            case "tool" -> TOOL;
            default -> new Role(name);
        };
    }

    /**
     * Whether this is one of system, user, assistant or tool.
     *
     * @return true for {@link #SYSTEM}, {@link #USER}, {@link #ASSISTANT} and {@link #TOOL}
     */
    public boolean isStandard() {
        return this.equals(SYSTEM) || this.equals(USER) || this.equals(ASSISTANT) || this.equals(TOOL);
    }

    @Override
    public String toString() {
        return name;
    }
}
