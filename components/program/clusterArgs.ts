import type * as pulumi from "@pulumi/pulumi";
import type { ClusterSettings } from "../config/types";

/**
 * The cluster as plain values, the keys of the stack configuration: every language passes the same
 * settings, and the component validates them before it registers anything.
 */
export interface OvnKubernetesClusterArgs extends ClusterSettings {
    /** The SSH private key that logs in to every host. */
    sshPrivateKey: pulumi.Input<string>;
    /** https API servers: the token ovnkube authenticates with. */
    k8sApiToken?: pulumi.Input<string>;
    /** https API servers: the CA certificate (PEM) the API server's certificate is checked against. */
    k8sCaCertificate?: pulumi.Input<string>;
    /** ovnTransport.protocol ssl: the OVN databases' private key (PEM). */
    ovnSslPrivateKey?: pulumi.Input<string>;
    /** ovnTransport.protocol ssl: the OVN databases' certificate (PEM). */
    ovnSslCertificate?: pulumi.Input<string>;
    /** ovnTransport.protocol ssl: the CA certificate (PEM) every OVN peer is checked against. */
    ovnSslCaCertificate?: pulumi.Input<string>;
    /** ovnkube mode: the kubeconfig of the cluster the Kubernetes objects go to. */
    kubeconfig?: pulumi.Input<string>;
    /** Owner tag of every NB row this cluster creates (default `<project>/<stack>`). */
    owner?: string;
    /**
     * The stack config key holding sshPrivateKey, from which the NB providers take the key (their
     * state names the key, never holds it). Default `<project>:sshPrivateKey`.
     */
    sshPrivateKeyConfig?: string;
}
