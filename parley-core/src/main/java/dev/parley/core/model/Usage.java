package dev.parley.core.model;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Token usage and cost of one model call, or a running total of several ({@link #plus(Usage)}).
 *
 * @param inputTokens prompt tokens not read from the cache
 * @param outputTokens generated tokens, reasoning included where the provider counts it so
 * @param cacheReadTokens prompt tokens read from the provider's cache
 * @param cacheWriteTokens prompt tokens written to the provider's cache
 * @param reasoningTokens tokens spent on reasoning, where the provider reports them separately
 * @param costUsd the cost in US dollars, or null when unknown; its scale (the digits after the point, negative for
 *     zeros before it) lies within &plusmn;{@value #MAX_COST_SCALE}, so that a short exponent form such as
 *     {@code 1E+10000000} cannot make a store write, or a sum compute, millions of digits. A sum ({@link #plus}) has
 *     the larger scale of the two, so it never leaves that range
 */
public record Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens,
                    long reasoningTokens, @Nullable BigDecimal costUsd) {
    /** No tokens, unknown cost. */
    public static final Usage ZERO = new Usage(0, 0, 0, 0, 0, null);
    /** The largest scale of a cost, either way: {@code 1E-1000} and {@code 1E+1000} are the extremes. */
    public static final int MAX_COST_SCALE = 1000;

    /**
     * Checks the counts and the cost.
     *
     * @param inputTokens prompt tokens not read from the cache, at least 0
     * @param outputTokens generated tokens, at least 0
     * @param cacheReadTokens prompt tokens read from the cache, at least 0
     * @param cacheWriteTokens prompt tokens written to the cache, at least 0
     * @param reasoningTokens reasoning tokens, at least 0
     * @param costUsd the cost in US dollars, or null when unknown
     * @throws dev.parley.core.InvalidInputException if a token count is negative or the cost's scale lies outside
     *     &plusmn;{@value #MAX_COST_SCALE}
     */
    public Usage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadTokens < 0 || cacheWriteTokens < 0 || reasoningTokens < 0) {
            throw new dev.parley.core.InvalidInputException("token counts must not be negative");
        }
        if (costUsd != null && Math.abs((long) costUsd.scale()) > MAX_COST_SCALE) {
            throw new dev.parley.core.InvalidInputException("a cost of scale " + costUsd.scale() + " ("
                    + (costUsd.scale() > 0 ? "digits after the point" : "zeros before it") + "); the limit is "
                    + MAX_COST_SCALE + " either way");
        }
    }

    /**
     * Input and output tokens only.
     *
     * @param inputTokens prompt tokens, at least 0
     * @param outputTokens generated tokens, at least 0
     * @return the usage, with the other counts 0 and the cost unknown (null)
     * @throws dev.parley.core.InvalidInputException if a count is negative
     */
    public static Usage of(long inputTokens, long outputTokens) {
        return new Usage(inputTokens, outputTokens, 0, 0, 0, null);
    }

    /**
     * The sum of input, output, cache-read and cache-write tokens, saturated at {@link Long#MAX_VALUE} as {@link #plus}
     * saturates: never negative.
     *
     * @return the total, from 0 to {@link Long#MAX_VALUE}; reasoning tokens are not added
     */
    public long totalTokens() {
        return saturatedSum(saturatedSum(inputTokens, outputTokens), saturatedSum(cacheReadTokens, cacheWriteTokens));
    }

    /**
     * The element-wise sum; the cost is the sum of the known costs, or null when neither is known. A token count whose
     * sum would pass {@link Long#MAX_VALUE} is {@link Long#MAX_VALUE} (saturated, as every store keeps its totals),
     * never negative.
     *
     * @param other the usage to add
     * @return the sum, a new usage
     */
    public Usage plus(Usage other) {
        Objects.requireNonNull(other, "other");
        BigDecimal cost = costUsd == null ? other.costUsd
                : other.costUsd == null ? costUsd : costUsd.add(other.costUsd);
        return new Usage(saturatedSum(inputTokens, other.inputTokens), saturatedSum(outputTokens, other.outputTokens),
                saturatedSum(cacheReadTokens, other.cacheReadTokens),
                saturatedSum(cacheWriteTokens, other.cacheWriteTokens),
                saturatedSum(reasoningTokens, other.reasoningTokens), cost);
    }

    /** {@code a + b} for counts that are never negative, or {@link Long#MAX_VALUE} where it would overflow. */
    private static long saturatedSum(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
