/**
 * The Parley server: a JSON HTTP API over every contract of one {@link dev.parley.core.store.Store} (the message log
 * and its catalog, session records, archives, and the session service), served by Javalin 7 on Jetty 12. It is the
 * remote node of {@code remote:} stores ({@code parley-remote}) and is started by {@code parley serve} or
 * {@link dev.parley.server.ServerMain}.
 *
 * <p>The scope of every request comes from the caller's bearer token ({@link dev.parley.server.Tokens}), never from
 * the request; errors are RFC 9457 problem documents ({@link dev.parley.json.wire.Problems}); the routes are declared
 * in one place and described by the OpenAPI document served at {@code /openapi.json}.
 */
@NullMarked
package dev.parley.server;

import org.jspecify.annotations.NullMarked;
