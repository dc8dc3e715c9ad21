package dev.srt.operator.manifests;

import static dev.srt.operator.manifests.ManifestsTest.CHART;
import static dev.srt.operator.manifests.ManifestsTest.MANIFESTS;
import static dev.srt.operator.manifests.ManifestsTest.NAMESPACE;
import static dev.srt.operator.manifests.ManifestsTest.read;
import static dev.srt.operator.manifests.ManifestsTest.skeleton;
import static dev.srt.operator.manifests.ManifestsTest.texts;
import static dev.srt.operator.manifests.ManifestsTest.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.srt.operator.reconcile.RecordedOperatorLifecycle;
import dev.srt.operator.reconcile.RecordedOperatorLifecycle.Request;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 6 (RBAC): the permissions in {@code manifests/} and in the Helm chart are the
 * ones the code uses, no more and no less.
 *
 * <p>The real operator runs a comparison's whole life against the CRUD mock API server
 * ({@link RecordedOperatorLifecycle}), once watching all namespaces and once with
 * {@code --namespaces}; every request its client sends becomes an access (namespace, API group,
 * resource, verb: GET of one object = get, of a collection = list, {@code watch=true} = watch,
 * POST = create, PUT = update, PATCH = patch, DELETE = delete). Each access must be allowed by the
 * RBAC objects, scoped as they are bound: the kustomize base, and the Helm chart in both modes
 * (with {@code watchNamespaces}, nothing may need a cluster-wide grant). And every verb the
 * manifests grant must be used, or be in {@link #GRANTED_BUT_NOT_REQUESTED} with its reason.
 */
class RbacMatchesCodeTest {
  static final String WATCHED = RecordedOperatorLifecycle.NAMESPACE;
  static final String LEASE_NAMESPACE = RecordedOperatorLifecycle.LEASE_NAMESPACE;
  static final String SERVICE_ACCOUNT = "srt-operator";
  static final Path RULES = CHART.resolve("files/rbac-rules.yaml");
  static final Path LEASE_RULES = CHART.resolve("files/leader-election-rules.yaml");

  /** Granted on purpose although the lifecycle may send no such request; each with its reason. */
  static final Map<Permission, String> GRANTED_BUT_NOT_REQUESTED = Map.of(
      new Permission("coordination.k8s.io", "leases", "update"),
      "JOSDK asks (SelfSubjectRulesReview) for create, update and get on leases before it campaigns and refuses to "
          + "start without them; fabric8's lease lock then renews with patch",
      new Permission("srt.dev", "routercomparisons", "get"),
      "when a finalizer patch meets a conflict (someone edited the comparison meanwhile), JOSDK reads the comparison "
          + "again by name (PrimaryUpdateAndCacheUtils.conflictRetryingPatch); otherwise it reads from its informer",
      new Permission("srt.dev", "gpuclusters", "get"),
      "the same conflict retry for the GpuCluster's finalizer; comparisons read their GpuCluster from the informer, "
          + "also when they are deleted");

  /**
   * What every authenticated user may do through Kubernetes' own ClusterRoles
   * ({@code system:basic-user}, {@code system:discovery}, {@code system:public-info-viewer}).
   */
  static final Set<Permission> EVERY_USER = Set.of(
      new Permission("authorization.k8s.io", "selfsubjectrulesreviews", "create"),
      new Permission("authorization.k8s.io", "selfsubjectaccessreviews", "create"));

  static List<Access> allNamespaces;
  static List<Access> watchedNamespaces;

  @BeforeAll
  static void runTheOperator() throws Exception {
    List<ResourceRule> leaseRules = new ArrayList<>();
    for (JsonNode rule : yaml(LEASE_RULES)) {
      leaseRules.add(new ResourceRule(texts(rule.path("apiGroups")), List.of(), texts(rule.path("resources")),
          texts(rule.path("verbs"))));
    }
    allNamespaces = accesses(RecordedOperatorLifecycle.run(Set.of(), leaseRules));
    watchedNamespaces = accesses(RecordedOperatorLifecycle.run(Set.of(WATCHED), leaseRules));
  }

  @Test
  void everyRequestIsAllowedByTheKustomizeBase() {
    assertAllowed(kustomizeGrants(), allNamespaces, "manifests/ (kustomize)");
  }

  @Test
  void everyRequestIsAllowedByTheHelmChartInBothModes() {
    assertHelmTemplatesBindAsModelled();
    assertAllowed(helmGrants(List.of()), allNamespaces, "Helm chart, all namespaces");
    assertAllowed(helmGrants(List.of(WATCHED, "team-a")), watchedNamespaces, "Helm chart, watchNamespaces: [bench, team-a]");
    assertThat(helmGrants(List.of(WATCHED))).as("with watchNamespaces nothing is granted cluster-wide")
        .allSatisfy(g -> assertThat(g.namespace()).isNotNull());
  }

  @Test
  void everyGrantedVerbIsUsed() {
    Set<Permission> used = new TreeSet<>();
    allNamespaces.forEach(a -> used.add(a.permission()));
    watchedNamespaces.forEach(a -> used.add(a.permission()));
    Set<Permission> granted = new TreeSet<>();
    kustomizeGrants().forEach(g -> granted.addAll(g.permissions()));
    helmGrants(List.of()).forEach(g -> granted.addAll(g.permissions()));
    helmGrants(List.of(WATCHED)).forEach(g -> granted.addAll(g.permissions()));

    Set<Permission> unjustified = new TreeSet<>(granted);
    unjustified.removeAll(used);
    unjustified.removeAll(GRANTED_BUT_NOT_REQUESTED.keySet());
    assertThat(unjustified).as("granted but never requested: remove them, or justify them in GRANTED_BUT_NOT_REQUESTED").isEmpty();

    // An entry may be requested in one run and not in another (a finalizer patch that meets a
    // conflict re-reads the comparison by name): only one that is not granted is stale.
    Set<Permission> stale = new TreeSet<>(GRANTED_BUT_NOT_REQUESTED.keySet());
    stale.removeIf(granted::contains);
    assertThat(stale).as("in GRANTED_BUT_NOT_REQUESTED but not granted: drop them from it").isEmpty();
  }

  @Test
  void secretsAreOnlyReadOneByOneInTheWatchedNamespace() {
    List<Access> secrets = new ArrayList<>(allNamespaces);
    secrets.addAll(watchedNamespaces);
    secrets.removeIf(a -> !a.resource().equals("secrets"));
    assertThat(secrets).isNotEmpty().allSatisfy(a -> {
      assertThat(a.verb()).isEqualTo("get");
      assertThat(a.namespace()).isEqualTo(WATCHED);
    });
    for (List<Grant> grants : List.of(kustomizeGrants(), helmGrants(List.of()), helmGrants(List.of(WATCHED)))) {
      assertThat(grants.stream().flatMap(g -> g.permissions().stream()).filter(p -> p.resource().equals("secrets")))
          .extracting(Permission::verb).containsOnly("get");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // requests -> accesses

  /** A request as RBAC sees it; {@code namespace} null: cluster-wide (all namespaces). */
  record Access(String namespace, String group, String resource, String verb, String request) {
    Permission permission() {
      return new Permission(group, resource, verb);
    }
  }

  record Permission(String group, String resource, String verb) implements Comparable<Permission> {
    @Override
    public int compareTo(Permission o) {
      return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
      return (group.isEmpty() ? "core" : group) + "/" + resource + " " + verb;
    }
  }

  static List<Access> accesses(List<Request> requests) {
    assertThat(requests).as("requests of the operator's client").isNotEmpty();
    List<Access> out = new ArrayList<>();
    for (Request r : requests) {
      Access a = access(r);
      if (a != null) {
        out.add(a);
      }
    }
    return out;
  }

  /** The RBAC view of one request, or null for a discovery path that every user may read. */
  static Access access(Request r) {
    List<String> s = Arrays.stream(r.path().split("/")).filter(p -> !p.isEmpty()).toList();
    int rest;
    String group;
    if (s.size() >= 2 && s.get(0).equals("api")) {
      group = "";
      rest = 2;
    } else if (s.size() >= 3 && s.get(0).equals("apis")) {
      group = s.get(1);
      rest = 3;
    } else {
      assertThat(r.method()).as("non-resource request %s", r).isEqualTo("GET");
      assertThat(r.path()).as("non-resource request %s", r).matches("/(api|apis|version|openapi)(/.*)?");
      return null;
    }
    if (s.size() == rest) {
      return null; // /api/v1, /apis/srt.dev/v1alpha1: discovery
    }
    String namespace = null;
    if (s.get(rest).equals("namespaces") && s.size() >= rest + 3) {
      namespace = s.get(rest + 1);
      rest += 2;
    }
    String resource = s.get(rest);
    String name = s.size() > rest + 1 ? s.get(rest + 1) : null;
    if (s.size() > rest + 2) {
      resource += "/" + s.get(rest + 2);
    }
    String verb = switch (r.method()) {
      case "GET" -> name != null ? "get" : watch(r.query()) ? "watch" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> name != null ? "delete" : "deletecollection";
      default -> throw new AssertionError("unexpected method in " + r);
    };
    if (name == null && namespace == null && !verb.equals("create") && resource.equals("namespaces")) {
      throw new AssertionError("the operator lists namespaces: " + r);
    }
    return new Access(namespace, group, resource, verb, r.toString());
  }

  static boolean watch(String query) {
    return query != null && Arrays.stream(query.split("&")).anyMatch(p -> p.equals("watch=true") || p.equals("watch=1"));
  }

  // ---------------------------------------------------------------------------------------------
  // grants

  /** Rules bound to the operator's ServiceAccount in one namespace, or cluster-wide (null). */
  record Grant(String namespace, String source, List<Permission> permissions) {
    boolean allows(Access a) {
      return (namespace == null || namespace.equals(a.namespace())) && permissions.contains(a.permission());
    }
  }

  static void assertAllowed(List<Grant> grants, List<Access> accesses, String what) {
    Map<String, String> denied = new TreeMap<>();
    for (Access a : accesses) {
      boolean builtIn = EVERY_USER.contains(a.permission());
      if (!builtIn && grants.stream().noneMatch(g -> g.allows(a))) {
        denied.putIfAbsent(a.permission() + " in " + (a.namespace() == null ? "all namespaces" : "namespace " + a.namespace()),
            a.request());
      }
    }
    assertThat(denied).as("requests of the operator that %s does not allow (permission -> first request)", what).isEmpty();
  }

  static List<Permission> permissions(JsonNode rules) {
    List<Permission> out = new ArrayList<>();
    for (JsonNode rule : rules) {
      assertThat(rule.has("resourceNames")).as("resourceNames in %s", rule).isFalse();
      for (String group : texts(rule.path("apiGroups"))) {
        for (String resource : texts(rule.path("resources"))) {
          for (String verb : texts(rule.path("verbs"))) {
            out.add(new Permission(group, resource, verb));
          }
        }
      }
    }
    return out;
  }

  /** What `kubectl apply -k manifests/` binds to the ServiceAccount. */
  static List<Grant> kustomizeGrants() {
    JsonNode kustomization = yaml(MANIFESTS.resolve("kustomization.yaml"));
    String defaultNamespace = kustomization.path("namespace").asText();
    Map<String, JsonNode> objects = new LinkedHashMap<>();
    for (String file : texts(kustomization.path("resources"))) {
      if (!file.endsWith(".yaml")) {
        continue;
      }
      for (JsonNode doc : documents(MANIFESTS.resolve(file))) {
        String kind = doc.path("kind").asText();
        String ns = kind.startsWith("Cluster") ? "" : doc.path("metadata").path("namespace").asText(defaultNamespace);
        objects.put(kind + "/" + ns + "/" + doc.path("metadata").path("name").asText(), doc);
      }
    }
    List<Grant> grants = new ArrayList<>();
    objects.forEach((key, binding) -> {
      String kind = binding.path("kind").asText();
      if (!kind.equals("ClusterRoleBinding") && !kind.equals("RoleBinding")) {
        return;
      }
      String namespace = kind.equals("RoleBinding") ? key.split("/")[1] : null;
      boolean toOperator = false;
      for (JsonNode subject : binding.path("subjects")) {
        toOperator |= subject.path("kind").asText().equals("ServiceAccount")
            && subject.path("name").asText().equals(SERVICE_ACCOUNT)
            && subject.path("namespace").asText(defaultNamespace).equals(NAMESPACE);
      }
      if (!toOperator) {
        return;
      }
      String roleKind = binding.path("roleRef").path("kind").asText();
      String role = roleKind + "/" + (roleKind.equals("Role") ? namespace : "") + "/" + binding.path("roleRef").path("name").asText();
      assertThat(objects).as("%s refers to %s", key, role).containsKey(role);
      grants.add(new Grant(namespace, key + " -> " + role, permissions(objects.get(role).path("rules"))));
    });
    assertThat(grants).as("bindings to ServiceAccount %s/%s in manifests/", NAMESPACE, SERVICE_ACCOUNT).isNotEmpty();
    return grants;
  }

  /**
   * What the Helm chart binds, for the given {@code watchNamespaces} with leader election on in
   * the release namespace; {@link #assertHelmTemplatesBindAsModelled} checks that the templates
   * do so (Helm itself is not needed).
   */
  static List<Grant> helmGrants(List<String> watchNamespaces) {
    List<Permission> rules = permissions(yaml(RULES));
    List<Grant> grants = new ArrayList<>();
    if (watchNamespaces.isEmpty()) {
      grants.add(new Grant(null, "ClusterRole + ClusterRoleBinding", rules));
    }
    for (String ns : watchNamespaces) {
      grants.add(new Grant(ns, "Role + RoleBinding in " + ns, rules));
    }
    grants.add(new Grant(LEASE_NAMESPACE, "leader-election Role + RoleBinding", permissions(yaml(LEASE_RULES))));
    return grants;
  }

  static void assertHelmTemplatesBindAsModelled() {
    String clusterRole = read(CHART.resolve("templates/clusterrole.yaml"));
    assertThat(clusterRole)
        .startsWith("{{- if and .Values.rbac.create (not .Values.watchNamespaces) }}")
        .contains("rules:\n{{ .Files.Get \"files/rbac-rules.yaml\" }}");
    assertThat(ManifestsTest.kinds(skeleton(CHART.resolve("templates/clusterrole.yaml"))))
        .containsExactly("ClusterRole", "ClusterRoleBinding");

    String role = read(CHART.resolve("templates/role.yaml"));
    assertThat(role)
        .startsWith("{{- if and .Values.rbac.create .Values.watchNamespaces }}")
        .contains("{{- range $namespace := uniq .Values.watchNamespaces }}", "rules:\n{{ $.Files.Get \"files/rbac-rules.yaml\" }}");
    assertThat(role.split("namespace: \\{\\{ \\$namespace }}", -1)).as("Role and RoleBinding in each namespace").hasSize(3);
    assertThat(ManifestsTest.kinds(skeleton(CHART.resolve("templates/role.yaml")))).containsExactly("Role", "RoleBinding");

    String lease = read(CHART.resolve("templates/leader-election-role.yaml"));
    assertThat(lease)
        .startsWith("{{- if and .Values.rbac.create .Values.leaderElection.enabled }}")
        .contains("rules:\n{{ .Files.Get \"files/leader-election-rules.yaml\" }}");
    assertThat(lease.split("namespace: \\{\\{ include \"srt-operator.leaseNamespace\" \\. }}", -1))
        .as("Role and RoleBinding in the lease namespace").hasSize(3);
    assertThat(ManifestsTest.kinds(skeleton(CHART.resolve("templates/leader-election-role.yaml")))).containsExactly("Role", "RoleBinding");

    for (Path template : ManifestsTest.templates()) {
      if (!Set.of("clusterrole.yaml", "role.yaml", "leader-election-role.yaml").contains(template.getFileName().toString())) {
        assertThat(ManifestsTest.kinds(skeleton(template))).as("RBAC objects in %s", template)
            .noneMatch(k -> k.endsWith("Role") || k.endsWith("RoleBinding"));
      }
    }
  }

  static List<JsonNode> documents(Path file) {
    List<JsonNode> docs = new ArrayList<>();
    ObjectMapper mapper = new ObjectMapper(new YAMLFactory());
    try (var parser = mapper.getFactory().createParser(read(file))) {
      mapper.readValues(parser, JsonNode.class).forEachRemaining(d -> {
        if (d != null && !d.isNull() && !d.isMissingNode()) {
          docs.add(d);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
    return docs;
  }
}
