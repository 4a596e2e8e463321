package io.vitals.internal.junit.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;

import java.io.IOException;
import java.time.Duration;

import org.apiguardian.api.API;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.TransportConfig;

/**
 * Engine API clients on the transport Testcontainers itself resolved, made on first use: one for requests, with a
 * response timeout, and one for long-lived streams (the agent's attach stream idles between tests), without.
 */
@API(status = INTERNAL, since = "0.1")
public final class EngineClients implements AutoCloseable {

    private DockerHttpClient requests;
    private DockerHttpClient streams;

    /** The client for requests: 5 s to connect, 10 s to answer. */
    public synchronized DockerHttpClient requests() {
        if (requests == null) {
            requests = builder().responseTimeout(Duration.ofSeconds(10)).build();
        }
        return requests;
    }

    /** The client for streams: 5 s to connect, no response timeout. */
    synchronized DockerHttpClient streams() {
        if (streams == null) {
            streams = builder().build();
        }
        return streams;
    }

    private static ZerodepDockerHttpClient.Builder builder() {
        TransportConfig transport = DockerClientFactory.instance().getTransportConfig();
        return new ZerodepDockerHttpClient.Builder().dockerHost(transport.getDockerHost())
                .sslConfig(transport.getSslConfig()).connectionTimeout(Duration.ofSeconds(5));
    }

    @Override
    public synchronized void close() {
        streams = closeQuietly(streams);
        requests = closeQuietly(requests);
    }

    private static DockerHttpClient closeQuietly(DockerHttpClient client) {
        if (client != null) {
            try {
                client.close();
            } catch (IOException e) {
                // the run is over; an unclean socket close loses nothing
            }
        }
        return null;
    }
}
