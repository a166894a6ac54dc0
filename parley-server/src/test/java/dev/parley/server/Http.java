package dev.parley.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.json.wire.Wire;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small JDK HttpClient wrapper for the tests: real requests to a real server on loopback. */
final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    record Answer(int status, String contentType, String body) {
        JsonNode json() {
            return Wire.parse(body, "the answer");
        }
    }

    private Http() {}

    static Answer send(ParleyServer server, String method, String target, String token, String body)
            throws IOException, InterruptedException {
        return sendBytes(server, method, target, token, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link #send(ParleyServer, String, String, String, String)}, with the body's bytes as they are. */
    static Answer sendBytes(ParleyServer server, String method, String target, String token, byte[] body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.uri() + target))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
    }

    static Answer get(ParleyServer server, String target, String token) throws IOException, InterruptedException {
        return send(server, "GET", target, token, null);
    }
}
