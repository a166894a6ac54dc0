package dev.parley.server.internal;

import dev.parley.json.Json;
import dev.parley.json.wire.Problems;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's answers to requests that never reach a route (a path that is not a valid URI, a header or URI too long), for
 * every method: problem documents like every other error of the server, not Jetty's HTML pages nor an empty body. A
 * server error (5xx) names only its status: what went wrong inside is never sent.
 */
public final class ProblemErrorHandler extends ErrorHandler {
    private static final HttpField PROBLEM_TYPE = new HttpField(HttpHeader.CONTENT_TYPE, Problems.MEDIA_TYPE);

    private static byte[] problem(int status, String reason) {
        String detail = reason == null || reason.isBlank() || status >= 500 ? HttpStatus.getMessage(status) : reason;
        return Json.write(Problems.of(status, Access.codeOf(status), detail)).getBytes(StandardCharsets.UTF_8);
    }

    /** Every method gets a problem document; Jetty's default writes a body only for GET, POST and HEAD. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        response.getHeaders().put(PROBLEM_TYPE);
        response.write(true, ByteBuffer.wrap(problem(code, message)), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(PROBLEM_TYPE);
        return ByteBuffer.wrap(problem(status, reason));
    }
}
