/**
 * Spring AI on Parley: {@link dev.parley.springai.ParleyChatMemoryRepository} keeps Spring AI chat memories in a
 * Parley store, appending by difference and keeping tool calls and responses.
 */
@NullMarked
package dev.parley.springai;

import org.jspecify.annotations.NullMarked;
