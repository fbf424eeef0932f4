// commander requires node:child_process at load time, but uses it only to run executable
// subcommands, which tokencli has none of. Loading it (and the net/dgram modules it pulls in)
// costs milliseconds on every run, so the bundle hands commander this lazy stand-in instead.
let real;
module.exports = new Proxy(
  {},
  {
    get(_target, key) {
      real ??= require('node:child_process');
      return real[key];
    },
  },
);
