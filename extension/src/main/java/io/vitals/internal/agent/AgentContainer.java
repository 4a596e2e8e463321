package io.vitals.internal.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.MeasureResources;
import io.vitals.internal.probe.CgroupAgent.AgentUnavailableException;
import io.vitals.internal.probe.ProbeException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Starts the agent container on an engine through the Engine API, the same client the Engine API probe uses (so it
 * works on whichever engine that reaches), and connects to its stdin and stdout by an attach stream.
 *
 * <p>The container: the agent image (a JRE only), Vitals' jar copied in before it starts, {@code --pid=host} and
 * {@code --cgroupns=host} so that host PIDs and cgroup paths mean the host's, the host's {@code /sys/fs/cgroup}
 * bind-mounted at {@code /host-cgroup} (read-only as cAdvisor mounts it; writable only with
 * {@code vitals.agent.resetPeaks=true}, so that the memory high-water mark can be reset per window as the host probe
 * does as root), no network, not privileged. It is labelled {@code io.vitals.managed=true} like every
 * container of the project's setup, removed by the engine when it exits, and exits when its stdin closes: when the
 * run ends, and when this JVM dies, since the engine closes the attach stream with its connection.
 */
final class AgentContainer {

    static final String LABEL = "io.vitals.managed";
    static final String ROLE_LABEL = "io.vitals.role";
    static final String CGROUP_MOUNT = "/host-cgroup";
    /**
     * What an engine that refuses the agent must allow, and how to do without it: said with the engine's own reason.
     * Engines that remap users (dockerd --userns-remap) answer "cannot share the host PID namespace when user
     * namespaces are enabled"; rootless engines refuse --pid=host too.
     */
    static final String NEEDS_AND_FIX = "The agent needs, without privileged mode, --pid=host, --cgroupns=host and "
            + "a bind mount of the host's /sys/fs/cgroup; rootless engines and engines that remap users (dockerd "
            + "--userns-remap) refuse --pid=host. Fix: measure on an engine that allows these (docs/agent.md), or set "
            + MeasureResources.PROBE_KEY + "=engine_api to use the Engine API without trying the agent.";

    private final DockerHttpClient control;
    private final DockerHttpClient stream;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * @param control the client for create, copy, start and remove
     * @param stream a client for the attach stream, without a response timeout: the stream is idle between tests
     */
    AgentContainer(DockerHttpClient control, DockerHttpClient stream) {
        this.control = control;
        this.stream = stream;
    }

    /** A running agent: its container, the connection to it, and how long its start took, step by step. */
    record Started(String containerId, AgentConnection connection, Duration startTime, StartSteps steps) {
    }

    /**
     * Where an agent's start went: Vitals' jar read (or zipped) and its size, the container created (at the same
     * time as the jar), the wait for the jar after that (what the overlap did not hide), the jar copied in, the
     * attach stream opened, the start call, and the first answer (the agent's JVM starting and reading its stdin).
     * For the benchmark that prints them.
     */
    record StartSteps(Duration jar, int jarBytes, Duration create, Duration jarWait, Duration copy, Duration attach,
            Duration start, Duration firstAnswer) {
    }

    /** Vitals' jar as the tar archive to copy, its size, and how long making it took. */
    private record JarTar(byte[] tar, int jarBytes, Duration took) {
    }

    private static JarTar jar(FutureTask<JarTar> jarTar) throws AgentUnavailableException {
        try {
            return jarTar.get();
        } catch (ExecutionException e) {
            throw new AgentUnavailableException("The Vitals agent cannot start: " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentUnavailableException("The Vitals agent's start was interrupted", e);
        }
    }

    Started start(String image, boolean resetPeaks, Duration answerTimeout) throws ProbeException {
        long begin = System.nanoTime();
        // Vitals' jar is read (or zipped, from a class directory) while the engine creates the container: the two
        // do not depend on each other, and each takes a few hundred ms on a loaded machine
        FutureTask<JarTar> jarTar = new FutureTask<>(() -> {
            byte[] jar = AgentJar.ofThisVitals();
            byte[] tar = AgentJar.tarOf(jar);
            return new JarTar(tar, jar.length, Duration.ofNanos(System.nanoTime() - begin));
        });
        Thread zipping = new Thread(jarTar, "vitals-agent-jar");
        zipping.setDaemon(true);
        zipping.start();
        String id;
        try {
            id = create(image, resetPeaks);
        } catch (ProbeException | RuntimeException e) {
            jarTar.cancel(true);
            throw e;
        }
        long created = System.nanoTime();
        try {
            JarTar jar = jar(jarTar);
            long jarReady = System.nanoTime();
            copy(id, jar.tar());
            long copied = System.nanoTime();
            RequestPipe requests = new RequestPipe();
            DockerHttpClient.Response attach = attach(id, requests.source());
            String name = "the Vitals agent container " + id.substring(0, 12);
            AnswerStream answers = new AnswerStream(attach.getBody(), true, EngineAgent.START_TIMEOUT, answerTimeout,
                    "vitals-agent-stream");
            AgentConnection connection = new AgentConnection(requests.sink(), answers, name, () -> {
                attach.close();
                remove(id);
            });
            long attached = System.nanoTime();
            call(id, "POST", "/containers/" + id + "/start", null, 204, 304);
            long startedAt = System.nanoTime();
            try {
                // the first answer proves the JVM runs and reads our stream: CLOSE of a watch that never was
                connection.call(AgentProtocol.CLOSE, 0, out -> { }, in -> null, "");
            } catch (ProbeException e) {
                connection.close();
                throw new AgentUnavailableException("The Vitals agent container started but does not answer ("
                        + e.getMessage() + "); the image " + image + " must hold a java 17+ on the PATH", e);
            }
            long answered = System.nanoTime();
            StartSteps steps = new StartSteps(jar.took(), jar.jarBytes(), Duration.ofNanos(created - begin),
                    Duration.ofNanos(jarReady - created), Duration.ofNanos(copied - jarReady),
                    Duration.ofNanos(attached - copied), Duration.ofNanos(startedAt - attached),
                    Duration.ofNanos(answered - startedAt));
            return new Started(id, connection, Duration.ofNanos(answered - begin), steps);
        } catch (ProbeException | RuntimeException e) {
            remove(id);
            if (e instanceof AgentUnavailableException unavailable) {
                throw unavailable;
            }
            throw new AgentUnavailableException("The Vitals agent container did not start (" + e.getMessage() + "). "
                    + NEEDS_AND_FIX, e);
        }
    }

    private String create(String image, boolean resetPeaks) throws ProbeException {
        ObjectNode body = json.createObjectNode();
        body.put("Image", image);
        body.putArray("Cmd").add("java").add("-Xmx48m").add("-XX:+UseSerialGC").add("-XX:TieredStopAtLevel=1")
                .add("-cp").add(AgentJar.PATH_IN_CONTAINER).add(AgentMain.class.getName()).add(CGROUP_MOUNT)
                .add("/proc").add(resetPeaks ? AgentMain.RESET_PEAKS : "read-only");
        body.put("OpenStdin", true).put("StdinOnce", true).put("AttachStdin", true).put("AttachStdout", true)
                .put("AttachStderr", true).put("Tty", false);
        body.putObject("Labels").put(LABEL, "true").put(ROLE_LABEL, "agent");
        ObjectNode host = body.putObject("HostConfig");
        // read-only, as cAdvisor mounts it, unless asked: a writable mount lets the agent reset the marks per window,
        // and would let it write any cgroup file of the host
        host.putArray("Binds").add("/sys/fs/cgroup:" + CGROUP_MOUNT + (resetPeaks ? ":rw" : ":ro"));
        host.put("PidMode", "host").put("CgroupnsMode", "host").put("NetworkMode", "none").put("AutoRemove", true)
                .put("Privileged", false);
        String name = "vitals-agent-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode created;
        try {
            created = call(null, "POST", "/containers/create?name=" + name, body.toString(), 201);
        } catch (EngineAnswer e) {
            if (e.status == 404) {
                throw new AgentUnavailableException("The Vitals agent image " + image + " is not on the Docker "
                        + "engine (" + e.getMessage() + "). Build it with examples/setup/images.sh, or load or push "
                        + "it there, or name another with -Dvitals.agent.image=... (docs/agent.md).");
            }
            throw new AgentUnavailableException("The Docker engine refused to create the Vitals agent container ("
                    + e.getMessage() + "). " + NEEDS_AND_FIX);
        }
        return created.path("Id").asText();
    }

    private void copy(String id, byte[] tar) throws ProbeException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.PUT).path("/containers/" + id + "/archive?path=/")
                .putHeader("Content-Type", "application/x-tar").body(new ByteArrayInputStream(tar)).build();
        expect(request, 200);
    }

    private DockerHttpClient.Response attach(String id, InputStream stdin) throws ProbeException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.POST)
                .path("/containers/" + id + "/attach?stream=1&stdin=1&stdout=1&stderr=1")
                .putHeader("Connection", "Upgrade").putHeader("Upgrade", "tcp").hijackedInput(stdin).build();
        DockerHttpClient.Response response = stream.execute(request);
        int status = response.getStatusCode();
        if (status != 101 && status != 200) {
            response.close();
            throw new AgentUnavailableException("The Docker engine answered HTTP " + status
                    + " to attaching to the Vitals agent container");
        }
        return response;
    }

    /** Removes the container, whatever its state; an engine that no longer knows it is fine. */
    void remove(String id) {
        try {
            call(id, "DELETE", "/containers/" + id + "?force=true", null, 204, 404, 409);
        } catch (ProbeException | RuntimeException e) {
            // the engine removes it itself when it exits (AutoRemove); cleanup.sh finds it by label otherwise
        }
    }

    private JsonNode call(String id, String method, String path, String body, int... ok) throws ProbeException {
        DockerHttpClient.Request.Builder request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.valueOf(method)).path(path);
        if (body != null) {
            request.putHeader("Content-Type", "application/json")
                    .body(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        }
        return expect(request.build(), ok);
    }

    private JsonNode expect(DockerHttpClient.Request request, int... ok) throws ProbeException {
        try (DockerHttpClient.Response response = control.execute(request); InputStream in = response.getBody()) {
            int status = response.getStatusCode();
            byte[] answer = in == null ? new byte[0] : in.readAllBytes();
            for (int expected : ok) {
                if (status == expected) {
                    return answer.length == 0 ? json.createObjectNode() : json.readTree(answer);
                }
            }
            throw new EngineAnswer(status, request.method() + " " + request.path() + ": HTTP " + status + " "
                    + new String(answer, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new ProbeException("The Docker engine did not answer " + request.method() + " " + request.path()
                    + ": " + e.getMessage(), e);
        }
    }

    /** An engine's refusal, with its HTTP status. */
    private static final class EngineAnswer extends ProbeException {

        private static final long serialVersionUID = 1L;
        final int status;

        EngineAnswer(int status, String message) {
            super(message);
            this.status = status;
        }
    }
}
