// Preloaded into a process profiled with --cpu-prof: node writes the profile only on a normal
// exit, so SIGTERM (how the benches stop the provider host) exits normally.
process.on("SIGTERM", () => process.exit(0));
