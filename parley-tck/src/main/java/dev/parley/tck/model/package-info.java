/**
 * Model servers for end-to-end tests of framework memory adapters: a real HTTP server on loopback that speaks a
 * provider's wire format and refuses what the provider refuses.
 */
@NullMarked
package dev.parley.tck.model;

import org.jspecify.annotations.NullMarked;
