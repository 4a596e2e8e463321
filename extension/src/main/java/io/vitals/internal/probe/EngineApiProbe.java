package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.ProbeKind;
import org.apiguardian.api.API;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads figures from the Docker Engine API ({@code GET /containers/{id}/stats}), for remote engines, rootless
 * setups and hosts whose cgroup files are out of reach. It asks for a one-shot sample (API 1.41+), so each read is
 * one round trip; older daemons get {@code stream=false}, which waits about a second for a second sample.
 *
 * <p>Coarser than the host probe: one HTTP request and a daemon-side cgroup walk per sample, no kernel
 * high-water mark on cgroup v2, no OOM-kill counter (the container's {@code OOMKilled} state is used instead) and
 * no pressure-stall figures. Its minimum interval is one second.
 */
@API(status = INTERNAL, since = "0.1")
public final class EngineApiProbe implements ResourceProbe {

    private static final Duration MINIMUM_INTERVAL = Duration.ofSeconds(1);

    private final DockerHttpClient http;
    private final ObjectMapper json;
    private final String containerId;
    private final String containerName;
    private final OptionalLong configuredLimit;
    private final Clock wallClock;
    private volatile boolean oneShotSupported = true;

    public EngineApiProbe(DockerHttpClient http, ObjectMapper json, String containerId, String containerName,
            OptionalLong configuredLimit, Clock wallClock) {
        this.http = http;
        this.json = json;
        this.containerId = containerId;
        this.containerName = containerName;
        this.configuredLimit = configuredLimit;
        this.wallClock = wallClock;
    }

    @Override
    public ProbeKind kind() {
        return ProbeKind.ENGINE_API;
    }

    @Override
    public RawReading read() throws ProbeException {
        JsonNode stats = request(oneShotSupported ? "stream=false&one-shot=true" : "stream=false");
        if (!EngineStatsParser.isRunning(stats)) {
            throw new ContainerGoneException("Container '" + containerName + "' is no longer running");
        }
        return EngineStatsParser.parse(stats, System.nanoTime(), wallClock.instant(), configuredLimit);
    }

    /**
     * One inspect ({@code GET /containers/{id}/json}): whether the engine still holds the container running. The
     * stats read just before may have come from a cgroup that outlives its process by a moment, and the sampler
     * reads only once a second; a window's end pays this one request more.
     */
    @Override
    public Optional<String> goneNow() throws ProbeException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/containers/" + containerId + "/json")
                .build();
        try (DockerHttpClient.Response response = http.execute(request); InputStream body = response.getBody()) {
            int status = response.getStatusCode();
            if (status == 404) {
                return Optional.of("Container '" + containerName + "' no longer exists");
            }
            if (status != 200) {
                throw new ProbeException("The Docker engine answered HTTP " + status + " to an inspect request for "
                        + "container '" + containerName + "': " + new String(body.readAllBytes()));
            }
            JsonNode state = json.readTree(body).path("State");
            if (state.path("Running").asBoolean(true)) {
                return Optional.empty();
            }
            return Optional.of("Container '" + containerName + "' is no longer running (state "
                    + state.path("Status").asText("unknown") + ", exit code " + state.path("ExitCode").asText("?")
                    + ")");
        } catch (IOException | RuntimeException e) {
            throw new ProbeException("Cannot inspect container '" + containerName + "' on the Docker engine: "
                    + e.getMessage(), e);
        }
    }

    private JsonNode request(String query) throws ProbeException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/containers/" + containerId + "/stats?" + query)
                .build();
        try (DockerHttpClient.Response response = http.execute(request); InputStream body = response.getBody()) {
            int status = response.getStatusCode();
            if (status == 404) {
                throw new ContainerGoneException("Container '" + containerName + "' no longer exists");
            }
            if (status == 400 && oneShotSupported) {
                oneShotSupported = false; // daemon older than API 1.41
                return request("stream=false");
            }
            if (status != 200) {
                throw new ProbeException("The Docker engine answered HTTP " + status + " to a stats request for "
                        + "container '" + containerName + "': " + new String(body.readAllBytes()));
            }
            return json.readTree(body);
        } catch (IOException | RuntimeException e) {
            throw new ProbeException("Cannot read stats of container '" + containerName
                    + "' from the Docker engine: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean resetHighWaterMark() {
        return false; // the Engine API offers no way to reset max_usage
    }

    @Override
    public HostShape hostShape() {
        return HostShape.engineApi();
    }

    @Override
    public Duration minimumInterval() {
        return MINIMUM_INTERVAL;
    }

    @Override
    public String describe() {
        return "Docker Engine API stats endpoint (one request per sample, at most one per second)";
    }

    @Override
    public void close() {
        // the HTTP client is shared and closed by its owner
    }
}
