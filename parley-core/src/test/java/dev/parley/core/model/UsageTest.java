package dev.parley.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UsageTest {
    /** Regression (review): the total of four large counts overflowed to a negative number; plus saturated, it did not. */
    @Test
    void totalTokens_ofCountsNearTheLimit_saturatesInsteadOfTurningNegative() {
        Usage big = new Usage(Long.MAX_VALUE - 1, 5, 0, 0, 0, null);
        assertThat(big.totalTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(new Usage(Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, 3, 0, null).totalTokens())
                .isEqualTo(Long.MAX_VALUE);
        assertThat(new Usage(1, 2, 3, 4, 100, null).totalTokens()).isEqualTo(10);
    }

    /** Regression (review): a cost of 1E+10000000 was accepted, and written out in full it is ten million digits. */
    @Test
    void costThatWouldBeMillionsOfDigitsWrittenOut_isRefused_whileALongExactCostIsKept() {
        assertThatThrownBy(() -> new Usage(0, 0, 0, 0, 0, new java.math.BigDecimal("1E+10000000")))
                .isInstanceOf(dev.parley.core.InvalidInputException.class).hasMessageContaining("the limit is 10000");
        assertThatThrownBy(() -> new Usage(0, 0, 0, 0, 0, new java.math.BigDecimal("1E-10000")))
                .isInstanceOf(dev.parley.core.InvalidInputException.class);
        java.math.BigDecimal longest = new java.math.BigDecimal("-0." + "1".repeat(Usage.MAX_COST_CHARS - 3));
        assertThat(longest.toPlainString()).hasSize(Usage.MAX_COST_CHARS);
        assertThat(new Usage(0, 0, 0, 0, 0, longest).costUsd()).isEqualTo(longest);
        java.math.BigDecimal big = new java.math.BigDecimal("1E+" + (Usage.MAX_COST_CHARS - 1));
        assertThat(big.toPlainString()).hasSize(Usage.MAX_COST_CHARS);
        assertThat(new Usage(0, 0, 0, 0, 0, big).costUsd()).isEqualTo(big);
        assertThatThrownBy(() -> new Usage(0, 0, 0, 0, 0, big.multiply(java.math.BigDecimal.TEN)))
                .isInstanceOf(dev.parley.core.InvalidInputException.class);
    }
}
