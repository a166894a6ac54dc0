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

    /**
     * Regression (review): a cost of 1E+10000000 was accepted, and written out in full it is ten million digits. A
     * bound on the length written out would not do: two costs within it could sum past it, failing a later append
     * after the first was stored; the scale is bounded, and a sum keeps the larger scale of the two.
     */
    @Test
    void costOfAHugeScaleEitherWay_isRefused_andSumsOfCostsWithinTheBoundStayWithinIt() {
        assertThatThrownBy(() -> new Usage(0, 0, 0, 0, 0, new java.math.BigDecimal("1E+10000000")))
                .isInstanceOf(dev.parley.core.InvalidInputException.class).hasMessageContaining("the limit is 1000");
        assertThatThrownBy(() -> new Usage(0, 0, 0, 0, 0, new java.math.BigDecimal("1E-1001")))
                .isInstanceOf(dev.parley.core.InvalidInputException.class);
        java.math.BigDecimal huge = new java.math.BigDecimal("9E+1000");
        java.math.BigDecimal tiny = new java.math.BigDecimal("1E-1000");
        Usage sum = new Usage(0, 0, 0, 0, 0, huge);
        for (int i = 0; i < 64; i++) {
            sum = sum.plus(sum).plus(new Usage(0, 0, 0, 0, 0, tiny));
        }
        assertThat(sum.costUsd().scale()).isEqualTo(1000);
        assertThat(sum.costUsd().toPlainString()).hasSizeLessThan(2100);
        java.math.BigDecimal exact = new java.math.BigDecimal("0.017400000000000002");
        assertThat(new Usage(0, 0, 0, 0, 0, exact).costUsd()).isEqualTo(exact);
    }
}
