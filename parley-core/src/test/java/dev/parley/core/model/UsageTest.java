package dev.parley.core.model;

import static org.assertj.core.api.Assertions.assertThat;

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
}
