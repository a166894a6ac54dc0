package dev.parley.tck;

import dev.parley.core.store.Capability;
import java.util.List;

/**
 * The three kits of the conformance kit, each certifying one contract of a {@link dev.parley.core.store.Store}, and
 * the capability a store declares to be checked by it. {@link StoreHarness#run(Kit)} runs a kit's scenarios when the
 * store declares the capability, and reports every one of them {@linkplain Verdict.Outcome#SKIPPED skipped}, with
 * the reason, when it does not.
 */
public enum Kit {
    /**
     * The message log ({@link MessageLogScenarios}, {@code ML-01}…{@code ML-19}). Every store has a log; the kit
     * needs it to keep what is appended ({@link Capability#PERSISTENT}), which every store but {@code null:} does.
     */
    MESSAGE_LOG("message-log", Capability.PERSISTENT),
    /** The session-record repository ({@link SessionRepositoryScenarios}, {@code CS-1}…{@code CS-10}). */
    SESSION_RECORDS("sessions", Capability.SESSION_RECORDS),
    /** The archive repository ({@link ArchiveRepositoryScenarios}, {@code AR-1}…{@code AR-7}). */
    ARCHIVES("archives", Capability.ARCHIVES);

    private final String label;
    private final Capability requires;

    Kit(String label, Capability requires) {
        this.label = label;
        this.requires = requires;
    }

    /**
     * The kit's name on the command line ({@code parley conformance --kit}) and in reports.
     *
     * @return {@code message-log}, {@code sessions} or {@code archives}
     */
    public String label() {
        return label;
    }

    /**
     * The capability a store must declare for the kit's scenarios to run.
     *
     * @return the capability
     */
    public Capability requires() {
        return requires;
    }

    /**
     * The kit's scenarios, in the order they run, as run against a {@link StoreHarness} (which is the harness of
     * every kit).
     *
     * @return the scenarios, a new immutable list each call
     */
    public List<Scenario<StoreHarness>> scenarios() {
        return switch (this) {
            case MESSAGE_LOG -> forStores(MessageLogScenarios.all());
            case SESSION_RECORDS -> forStores(SessionRepositoryScenarios.all());
            case ARCHIVES -> forStores(ArchiveRepositoryScenarios.all());
        };
    }

    private static List<Scenario<StoreHarness>> forStores(List<? extends Scenario<? super StoreHarness>> scenarios) {
        return scenarios.stream().map(s -> new Scenario<StoreHarness>(s.id(), s.name(), s.rule(),
                (harness, scope) -> s.body().run(harness, scope))).toList();
    }

    /**
     * The titles ({@link Scenario#title()}: id and name) of the kit's scenarios, in the order they run.
     *
     * @return the titles, an immutable list
     */
    public List<String> titles() {
        return scenarios().stream().map(Scenario::title).toList();
    }

    /**
     * Why the kit's scenarios do not run against a store that does not declare {@link #requires()}.
     *
     * @return the reason, naming the capability and the kit, as a skipped verdict's detail
     */
    public String notDeclared() {
        return "the store does not declare " + requires + ", which the " + label + " kit checks";
    }

    /**
     * The kit with this label.
     *
     * @param label a kit's {@link #label()}, matched exactly
     * @return the kit
     * @throws IllegalArgumentException naming the labels, if none has it
     */
    public static Kit ofLabel(String label) {
        for (Kit k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown kit '" + label + "'; expected message-log, sessions or archives");
    }

    @Override
    public String toString() {
        return label;
    }
}
