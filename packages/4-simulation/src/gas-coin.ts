/**
 * The transient mock gas coin a transaction without a real gas coin pays with (see
 * `ExecuteOptions.gasCoin`): a `Coin<SUI>` of the sender holding the budget and what the
 * commands may spend, made for one transaction and never stored.
 *
 * One is made per transaction, so what does not change from one to the next is computed
 * once per environment: the coin's type, its storage rebate (the object's size for gas does
 * not depend on the id, owner or balance: fixed-size fields only) and its previous
 * transaction.
 */
import { SUI_ADDRESS } from '@smi/bytecode';
import { type MoveVM, objectStorageCost, type ProtocolConfig, type Type } from '@smi/move-vm';
import { objectSizeForGas, type SuiObject } from '@smi/ptb';
import { syntheticDigest } from './system.js';

const SUI_COIN = `${SUI_ADDRESS}::coin::Coin<${SUI_ADDRESS}::sui::SUI>`;

/** Makes the mock gas coins of one environment. */
export class MockGasCoins {
  private type: Type | null = null;
  private rebate: bigint | null = null;
  private previousTransaction: string | null = null;

  constructor(
    private readonly vm: MoveVM,
    private readonly protocolConfig: ProtocolConfig,
  ) {}

  /** A `Coin<SUI>` of `balance` owned by `owner`, with id `id`. */
  make(id: string, owner: string, balance: bigint): SuiObject {
    // The type is resolved each time the VM's packages may have changed (0x2 can be replaced).
    const type = this.vm.resolveType(SUI_COIN);
    if (type !== this.type) {
      this.type = type;
      this.rebate = null;
    }
    const contents = this.vm.bcs.encode([[[id]], [balance]], type);
    this.previousTransaction ??= syntheticDigest('genesis-coin', 0n);
    const coin = {
      data: {
        $kind: 'Move',
        Move: { type: { $kind: 'GasCoin', GasCoin: true }, hasPublicTransfer: true, version: 1n, contents },
      },
      owner: { $kind: 'AddressOwner', AddressOwner: owner },
      previousTransaction: this.previousTransaction,
      storageRebate: 0n,
    } as SuiObject;
    this.rebate ??= objectStorageCost(this.protocolConfig, BigInt(objectSizeForGas(coin)));
    coin.storageRebate = this.rebate;
    return coin;
  }
}
