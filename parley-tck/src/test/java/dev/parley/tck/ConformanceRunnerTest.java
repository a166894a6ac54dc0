package dev.parley.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a failed scenario reports, and that its scope is cleaned up whatever the failure. */
class ConformanceRunnerTest {
    private final List<String> cleaned = new ArrayList<>();

    private ConformanceFailure failureOf(Scenario.Body<Object> body) {
        Scenario<Object> scenario = new Scenario<>("ML-99", "a scenario", "a rule", body);
        try {
            ConformanceRunner.runOne(scenario, new Object(), (harness, scope) -> cleaned.add(scope));
        } catch (ConformanceFailure e) {
            return e;
        }
        throw new AssertionError("the scenario did not fail");
    }

    /**
     * Found by a reading of the Javadoc: a backend that threw an exception without a message (a bare
     * NullPointerException) was reported as "unexpected NullPointerException: null", pointing nowhere.
     */
    @Test
    void failureWithoutAMessage_isReportedWithWhereItWasThrown_notNull() {
        ConformanceFailure npe = failureOf((harness, scope) -> {
            throw new NullPointerException();
        });
        ConformanceFailure assertion = failureOf((harness, scope) -> {
            throw new AssertionError();
        });

        assertThat(npe.getMessage()).startsWith("ML-99 a scenario: unexpected NullPointerException at ")
                .contains(ConformanceRunnerTest.class.getName()).doesNotContain("null");
        assertThat(assertion.getMessage()).startsWith("ML-99 a scenario: an assertion failed at ")
                .doesNotContain("null");
        assertThat(cleaned).hasSize(2);
    }

    @Test
    void failureWithAMessage_keepsIt() {
        assertThat(failureOf((harness, scope) -> {
            throw new IllegalStateException("the log lost entry 3");
        }).getMessage()).isEqualTo("ML-99 a scenario: unexpected IllegalStateException: the log lost entry 3");
        assertThatCode(() -> ConformanceRunner.runOne(new Scenario<Object>("ML-98", "passes", "a rule",
                (harness, scope) -> {}), new Object(), (harness, scope) -> cleaned.add(scope))).doesNotThrowAnyException();
    }

    /** Found by a reading of the Javadoc: a verdict for ML-02 accepted the title of ML-020, since it only checked a prefix. */
    @Test
    void verdict_refusesATitleOfAnotherScenarioWhoseIdStartsTheSame() {
        assertThatCode(() -> new Verdict("ML-02", "ML-02 batch append is atomic", Verdict.Outcome.PASSED, null,
                Duration.ZERO)).doesNotThrowAnyException();
        assertThatThrownBy(() -> new Verdict("ML-02", "ML-020 another",
                Verdict.Outcome.PASSED, null, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
