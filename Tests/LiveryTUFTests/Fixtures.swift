/// Metadata written by python-tuf 7.0 (securesystemslib 1.6), signed with RFC 8032's TEST 1 key.
enum Fixtures {
    static let test1Seed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
    static let test1KeyId = "74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916"

    /// A root giving the TEST 1 key every role, as python-tuf writes it by default (indented).
    static let pythonTUFRoot = #"""
        {
         "signatures": [
          {
           "keyid": "74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916",
           "sig": "b31eb95d52f4bb9186288ea327961b1ea25a7ec7d869272ce5ced0a27d0815270dd99983d68990350145e3def180cc5837c04604c9c6cc8f308c40ea8c8df303"
          }
         ],
         "signed": {
          "_type": "root",
          "consistent_snapshot": true,
          "expires": "2030-01-01T00:00:00Z",
          "keys": {
           "74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916": {
            "keytype": "ed25519",
            "keyval": {
             "public": "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
            },
            "scheme": "ed25519"
           }
          },
          "roles": {
           "root": {"keyids": ["74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916"], "threshold": 1},
           "snapshot": {"keyids": ["74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916"], "threshold": 1},
           "targets": {"keyids": ["74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916"], "threshold": 1},
           "timestamp": {"keyids": ["74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916"], "threshold": 1}
          },
          "spec_version": "1.0.31",
          "version": 1
         }
        }
        """#

    /// Targets version 3 with one target and its `custom` field, in python-tuf's compact form.
    static let pythonTUFTargets =
        #"{"signatures":[{"keyid":"74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916","sig":"763c09c758bcafe1d7143eeed7deb37690e94b55fc4a8bf50ba76805c1ccc487ae833795770f59f350a46b81cb9369c6fc059623bc7b1a5009ef423b333a9b05"}],"signed":{"_type":"targets","expires":"2030-01-01T00:00:00Z","spec_version":"1.0.31","targets":{"bundle.json":{"custom":{"etag":"\"abc\""},"hashes":{"sha256":"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"},"length":2}},"version":3}}"#
}
